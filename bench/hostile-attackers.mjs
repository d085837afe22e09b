// The attackers of the `hostile` group (hostile.mjs), in a process of their own: HOSTILE names
// the shop, how many clients, for how long and what they send (`route`: 'verify' or 'book';
// `token` and `categoryId` for the administrator's upload). Each client sends from its own
// loopback address, back to back; what each bomb was answered is printed as JSON at the end.
import { Agent } from 'undici';
import { adminUploadAttack, verifyAttack, worstFiles } from './hostile.mjs';

const { url, clients, seconds, route, token, categoryId } = JSON.parse(process.env.HOSTILE);
const files = worstFiles();
const send = route === 'verify' ? verifyAttack(url, files.verify) : adminUploadAttack(url, files.fullPdf, { token, categoryId });
const answers = {};
const tally = (key) => (answers[key] = (answers[key] ?? 0) + 1);
const end = performance.now() + seconds * 1000;
await Promise.all(
  Array.from({ length: clients }, async (_, i) => {
    const agent = new Agent({ connect: { localAddress: `127.66.0.${i + 1}` }, headersTimeout: 120_000, bodyTimeout: 120_000 });
    try {
      while (performance.now() < end) {
        try {
          tally(await send(agent));
        } catch (err) {
          tally(`error ${err.cause?.code ?? err.message}`);
        }
      }
    } finally {
      await agent.close();
    }
  }),
);
process.stdout.write(JSON.stringify(answers));
