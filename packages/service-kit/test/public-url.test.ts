// PUBLIC_URL is printed in every Persona and e-mail: which addresses buyers cannot reach, and the
// dedication image's token.
import { localUrlProblem, personaImageToken } from '../src/public-url';

describe('localUrlProblem', () => {
  it.each([
    'http://localhost:8080',
    'http://LOCALHOST',
    'http://shop.localhost',
    'http://127.0.0.1:8080',
    'http://127.8.9.10',
    'http://[::1]:8080',
    'http://[::ffff:127.0.0.1]',
    'http://[fd12:3456::1]',
    'http://[fe80::1]',
    'http://0.0.0.0:8080',
    'http://10.1.2.3',
    'http://172.16.0.5',
    'http://172.31.255.1',
    'http://192.168.1.20:8080',
    'http://169.254.1.1',
    'http://persona-books.local',
    'http://shop',
  ])('refuses %s as a public address', (url) => {
    expect(localUrlProblem(url)).toBe(`PUBLIC_URL (${url}) is a local address that buyers cannot reach`);
  });

  it('says so when it is not set or not an address', () => {
    expect(localUrlProblem(undefined)).toBe('PUBLIC_URL is not set');
    expect(localUrlProblem('')).toBe('PUBLIC_URL is not set');
    expect(localUrlProblem('not a url')).toBe('PUBLIC_URL (not a url) is not an address');
  });

  it.each(['https://personabooks.in', 'https://shop.example.com:8443/', 'http://172.32.0.1', 'http://8.8.8.8', 'http://[2001:db8::1]'])('accepts %s', (url) => {
    expect(localUrlProblem(url)).toBeNull();
  });
});

describe('personaImageToken', () => {
  it('is the same for the same secret and Persona, and differs for another of either', () => {
    const secret = 's'.repeat(40);
    const token = personaImageToken(secret, 'PRS-7K3M-9QXD-2HFA-J8TW');
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(personaImageToken(secret, 'PRS-7K3M-9QXD-2HFA-J8TW')).toBe(token);
    expect(personaImageToken(secret, 'PRS-7K3M-9QXD-2HFA-J8TX')).not.toBe(token);
    expect(personaImageToken('t'.repeat(40), 'PRS-7K3M-9QXD-2HFA-J8TW')).not.toBe(token);
  });
});
