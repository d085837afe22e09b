// The public log of Personas, the parts every reader shares (the shop, the browser, the audit):
// RFC 6962 hashing, the C2SP tlog-tiles layout, checkpoints and signed notes, proofs. The server's
// own (SHA-256 at once, signing keys) are in './node'.
export * from './append';
export * from './base64';
export * from './bytes';
export * from './checkpoint';
export * from './hashing';
export * from './note';
export * from './tiles';
export * from './tree';
export * from './audit';
