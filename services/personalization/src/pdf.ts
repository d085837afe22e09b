// The Persona PDF and EPUB engines, the print files and their preflight, and signing, for tools that make Personas outside the service (benchmarks).
export { buildPersonaPdf, clearPersonaPdfCache, UnreadableSourceError, type PersonaPdf, type PersonaPdfInput } from './modules/pdf-engine/build-persona-pdf';
export { buildPersonaEpub, type PersonaEpubInput } from './modules/epub/build-persona-epub';
export { leakMark, markSecret } from './modules/leak-mark/mark-code';
export {
  generateSigningKey,
  personaSalts,
  signedRecordOf,
  signPersona,
  verifyPersonaSignature,
  sha256Hex,
  canonicalJson,
  type SigningKey,
} from './modules/signing/persona-signature';
export { printInterior } from './modules/print-files/print-interior';
export { printCover } from './modules/print-files/print-cover';
export { preflight } from './modules/print-files/preflight';
export { spineInches } from './modules/print-files/print-specs';
