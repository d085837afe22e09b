// The Persona PDF figures beside qpdf, in alternating rounds on the same files
// (the machine's load changes; medians of rounds taken side by side are what
// compare):  node bench/pdf/compare.cjs [rounds=5]
// Needs a built workspace (npm run build -w @persona/personalization) and qpdf.
//   cold      one build in a fresh process (what `npm run bench` reports)
//   again     a further Persona of the same book in that process (prepared book cached)
//   process   the whole `node` process, start-up and module loading included
//   qpdf      qpdf <book> --overlay <one-page stamp> --repeat=1 -- out.pdf
const { execFileSync, spawnSync } = require('node:child_process');
const { existsSync, mkdtempSync, rmSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const rounds = Number(process.argv[2] ?? 5);
const measure = path.join(__dirname, 'measure-persona-pdf.cjs');
const TIME = '/usr/bin/time';

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length % 2 ? sorted[(sorted.length - 1) / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
}

/** Wall ms, and CPU ms (user + system) when /usr/bin/time is there. */
function run(command, args) {
  const timeThere = existsSync(TIME);
  const started = performance.now();
  const child = timeThere ? spawnSync(TIME, ['-f', '%U %S', command, ...args], { encoding: 'utf8' }) : spawnSync(command, args, { encoding: 'utf8' });
  const wall = performance.now() - started;
  if (child.status !== 0) throw new Error(`${command} failed: ${child.stderr}`);
  const times = timeThere ? child.stderr.trim().split('\n').pop().split(' ').map(Number) : [];
  return { wall, cpu: times.length === 2 ? (times[0] + times[1]) * 1000 : undefined, stdout: child.stdout };
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-pdf-compare-'));
try {
  execFileSync(process.execPath, [path.join(__dirname, 'fixtures.cjs'), dir]);
  const book = path.join(dir, 'book.pdf');
  const stamp = path.join(dir, 'stamp.pdf');
  const qpdfThere = spawnSync('qpdf', ['--version']).status === 0;
  const rows = {
    cold: [],
    coldCpu: [],
    again: [],
    againCpu: [],
    process: [],
    processCpu: [],
    rss: [],
    qpdf: [],
    qpdfCpu: [],
    text: [],
    textCpu: [],
    textAgain: [],
    textRss: [],
  };
  for (let round = 0; round < rounds; round += 1) {
    const ours = run(process.execPath, [measure, 'pdf', book, '--again']);
    const result = JSON.parse(ours.stdout);
    rows.cold.push(result.ms);
    rows.coldCpu.push(result.cpuMs);
    rows.again.push(result.again.ms);
    rows.againCpu.push(result.again.cpuMs);
    rows.process.push(ours.wall);
    if (ours.cpu !== undefined) rows.processCpu.push(ours.cpu);
    rows.rss.push(result.peakRssMb);
    if (qpdfThere) {
      const qpdf = run('qpdf', [book, '--overlay', stamp, '--repeat=1', '--', path.join(dir, 'out.pdf')]);
      rows.qpdf.push(qpdf.wall);
      if (qpdf.cpu !== undefined) rows.qpdfCpu.push(qpdf.cpu);
    }
    const text = JSON.parse(run(process.execPath, [measure, 'text', '--again']).stdout);
    rows.text.push(text.ms);
    rows.textCpu.push(text.cpuMs);
    rows.textAgain.push(text.again.ms);
    rows.textRss.push(text.peakRssMb);
  }
  const m = (key) => (rows[key].length ? median(rows[key]) : NaN);
  const f = (value) => (Number.isNaN(value) ? 'n/a' : `${value.toFixed(0)} ms`);
  console.log(
    `${rounds} alternating rounds, medians (${os.cpus().length} CPUs, load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}, Node ${process.version})`,
  );
  console.log(`  300-page PDF, cold build:       ${f(m('cold'))} wall, ${f(m('coldCpu'))} CPU`);
  console.log(`  300-page PDF, whole process:    ${f(m('process'))} wall, ${f(m('processCpu'))} CPU`);
  console.log(`  300-page PDF, further Persona:  ${f(m('again'))} wall, ${f(m('againCpu'))} CPU`);
  if (qpdfThere) {
    console.log(`  qpdf --overlay:                 ${f(m('qpdf'))} wall, ${f(m('qpdfCpu'))} CPU`);
    console.log(
      `  ratio cold build / qpdf:        ${(m('cold') / m('qpdf')).toFixed(2)}× wall (target ≤ 2.0×), ${(m('coldCpu') / m('qpdfCpu')).toFixed(2)}× CPU`,
    );
    console.log(`  ratio further Persona / qpdf:   ${(m('again') / m('qpdf')).toFixed(2)}× wall`);
  } else {
    console.log('  (qpdf is not installed: apt-get install qpdf)');
  }
  console.log(`  peak RSS, PDF build:            ${Math.max(...rows.rss).toFixed(0)} MB (target ≤ 200 MB)`);
  console.log(
    `  typeset book, cold build:       ${f(m('text'))} wall, ${f(m('textCpu'))} CPU; further Persona ${f(m('textAgain'))}; peak RSS ${Math.max(...rows.textRss).toFixed(0)} MB`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
