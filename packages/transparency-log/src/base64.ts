// Standard base64 (with padding), as the checkpoint and signed-note formats write it; atob/btoa
// exist in browsers and in Node.

export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

/** Decodes standard, padded base64; anything else (URL-safe letters, whitespace, missing padding) is refused. */
export function fromBase64(text: string): Uint8Array {
  if (!/^([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(text)) throw new Error('not standard base64');
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) out[i] = binary.charCodeAt(i);
  return out;
}
