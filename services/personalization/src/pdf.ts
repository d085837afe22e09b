// The Persona PDF and EPUB engines and signing, for tools that make Personas outside the service (benchmarks).
export { buildPersonaPdf, clearPersonaPdfCache, UnreadableSourceError, type PersonaPdf, type PersonaPdfInput } from './modules/pdf-engine/build-persona-pdf';
export { buildPersonaEpub, type PersonaEpubInput } from './modules/epub/build-persona-epub';
export { leakMark, markSecret } from './modules/leak-mark/mark-code';
export { generateSigningKey, signPersona, verifyPersonaSignature, sha256Hex, canonicalJson, type SigningKey } from './modules/signing/persona-signature';
