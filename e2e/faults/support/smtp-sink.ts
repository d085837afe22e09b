// A small SMTP server for the fault suite: it speaks enough of RFC 5321 for nodemailer (EHLO,
// MAIL, RCPT, DATA, RSET, NOOP, QUIT; no TLS, no auth), keeps every message it accepts with its
// Message-ID, and can answer a message's end slowly (a server slower than the mail relay's lease).
import net from 'node:net';

export interface SunkMail {
  messageId: string;
  to: string[];
  subject: string;
  text: string;
  acceptedAt: number;
}

export interface SmtpSink {
  url: string;
  /** Every message accepted, in order (a message sent twice is here twice). */
  readonly messages: SunkMail[];
  /** How long to wait before accepting the n-th message (0-based); 0 by default. */
  delayFor: (n: number) => number;
  /** Messages accepted after a delay. */
  readonly delayed: number;
  close(): Promise<void>;
}

const header = (raw: string, name: string) =>
  new RegExp(`^${name}:[ \\t]*(.*(?:\\r?\\n[ \\t].*)*)`, 'im')
    .exec(raw)?.[1]
    ?.replace(/\r?\n[ \t]+/g, ' ')
    .trim() ?? '';

export async function startSmtpSink(): Promise<SmtpSink> {
  const messages: SunkMail[] = [];
  const sockets = new Set<net.Socket>();
  let received = 0;
  let delayed = 0;
  const sink: SmtpSink = {
    url: '',
    messages,
    delayFor: () => 0,
    get delayed() {
      return delayed;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.setEncoding('utf8');
    const say = (line: string) => socket.writable && socket.write(`${line}\r\n`);
    let buffer = '';
    let inData = false;
    let data: string[] = [];
    let to: string[] = [];
    say('220 sink.persona.test ESMTP');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      for (let end = buffer.indexOf('\r\n'); end >= 0; end = buffer.indexOf('\r\n')) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (inData) {
          if (line !== '.') {
            data.push(line.startsWith('..') ? line.slice(1) : line);
            continue;
          }
          inData = false;
          const raw = data.join('\r\n');
          const n = received++;
          const mail: SunkMail = {
            messageId: header(raw, 'Message-ID'),
            to,
            subject: header(raw, 'Subject'),
            text: raw.slice(raw.indexOf('\r\n\r\n') + 4),
            acceptedAt: 0,
          };
          const accept = () => {
            // A connection the client gave up on accepted nothing.
            if (!socket.writable) return;
            mail.acceptedAt = Date.now();
            messages.push(mail);
            say('250 2.0.0 queued');
          };
          const delay = sink.delayFor(n);
          if (delay > 0) setTimeout(() => ((delayed += 1), accept()), delay).unref();
          else accept();
          data = [];
          to = [];
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') {
          say(verb === 'EHLO' ? '250-sink.persona.test\r\n250 8BITMIME' : '250 sink.persona.test');
        } else if (verb === 'MAIL') {
          to = [];
          say('250 2.1.0 ok');
        } else if (verb === 'RCPT') {
          to.push(/<([^>]*)>/.exec(line)?.[1] ?? '');
          say('250 2.1.5 ok');
        } else if (verb === 'DATA') {
          inData = true;
          data = [];
          say('354 end with <CRLF>.<CRLF>');
        } else if (verb === 'RSET' || verb === 'NOOP') {
          say('250 2.0.0 ok');
        } else if (verb === 'QUIT') {
          say('221 2.0.0 bye');
          socket.end();
        } else {
          say('502 5.5.2 not implemented');
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  sink.url = `smtp://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  return sink;
}
