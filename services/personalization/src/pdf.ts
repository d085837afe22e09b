// The Persona PDF engine and signing, for tools that make Personas outside the service (benchmarks).
export { buildPersonaPdf, UnreadableSourceError, type PersonaPdf, type PersonaPdfInput } from './modules/pdf-engine/build-persona-pdf';
export { generateSigningKey, signPersona, verifyPersonaSignature, sha256Hex, canonicalJson, type SigningKey } from './modules/signing/persona-signature';
