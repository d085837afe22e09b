// A TCP proxy between the services and PostgreSQL that the test can cut: every
// open connection destroyed and new ones refused (the port stops listening),
// as when the database host goes away; then restored on the same port.
import net, { type Server, type Socket } from 'node:net';

export class TcpProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  port = 0;
  /** Connections accepted so far (a sign the services really go through the proxy). */
  accepted = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async start(): Promise<number> {
    await this.listen(0);
    return this.port;
  }

  private listen(port: number): Promise<void> {
    const server = net.createServer((client) => this.pipe(client));
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        this.port = (server.address() as net.AddressInfo).port;
        resolve();
      });
    });
  }

  private pipe(client: Socket) {
    this.accepted++;
    const upstream = net.connect(this.target.port, this.target.host);
    for (const s of [client, upstream]) {
      this.sockets.add(s);
      s.setNoDelay(true);
      s.on('error', () => undefined);
      s.on('close', () => {
        this.sockets.delete(s);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  }

  /** Stops listening (new connections are refused) and destroys every open connection. */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    const closed = server ? new Promise<void>((resolve) => server.close(() => resolve())) : Promise.resolve();
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    await closed;
  }

  /** Listens again on the same port. */
  async restore(): Promise<void> {
    if (this.server) return;
    await this.listen(this.port);
  }

  async close(): Promise<void> {
    await this.cut();
  }
}
