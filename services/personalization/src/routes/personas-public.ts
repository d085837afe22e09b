// /api/personas for anyone: the shop's public key, and the verification of a Persona by its ID
// (printed on every page) or of an uploaded copy.
import { DataEnvelope, ErrorBody, FileVerification, NoQuery, PersonaIdParams, PersonaVerification, PublicKey } from '@persona/contracts';
import { abandonedSignal, clientAddress, notFound, unsupportedMediaType, type ServiceApp } from '@persona/service-kit';
import { discardUploads } from '@persona/untrusted';
import type { PersonalizationDeps } from '../deps';
import { COPY_NAME, receiveCopy } from '../modules/copy-checks/receive-copy';
import { copyFormat } from '../modules/leak-mark/copy-format';
import { licenceOf } from '../modules/personas/licence-status';
import { personaIdOf } from '../modules/personas/persona-id';
import { copyNumberOf, logPlaceOf } from '../modules/personas/copy-numbers';
import * as repo from '../modules/personas/personas.repository';
import { signatureHolds, signedRecord, verifyFile } from '../modules/personas/verify-file';
import { canonicalJson, signedFields } from '../modules/signing/persona-signature';

const MAX_UPLOAD = 10 * 1024 * 1024;

/**
 * What anyone with a Persona's id (printed on every page) is told: what its copy shows everyone,
 * never a gift's buyer or message. Since issue 24 the signed record holds only that and salted
 * hashes, so it is answered whole and its signature can be checked by anyone; an older gift's
 * record named its buyer and message, and is checked here only.
 */
function publicVerification(row: repo.PersonaRow, publicKeys: Map<string, string>): Omit<PersonaVerification, 'licence' | 'copy' | 'log'> {
  let record: string | null = null;
  try {
    const signed = signedRecord(row);
    if ('v' in signed || (!row.recipient_name && !row.message)) record = canonicalJson(signedFields(signed));
  } catch {
    // A version 2 row missing a salt: its record cannot be rebuilt (and signatureHolds says it does not verify).
  }
  return {
    personaId: row.persona_id,
    valid: signatureHolds(row, publicKeys),
    title: row.title,
    author: row.author,
    name: row.recipient_name ?? row.buyer_name,
    purchaseDate: row.purchase_date,
    gift: row.recipient_name !== null,
    record,
    sha256: row.sha256 as string,
    signature: row.signature as string,
    keyId: row.key_id as string,
  };
}

export default async function personaPublicRoutes(app: ServiceApp, deps: PersonalizationDeps) {
  const { db } = deps;
  // Per client (the address the gateway forwards), so one guesser cannot use up every buyer's lookups.
  const limited = { rateLimit: { ...deps.lookupRateLimit, keyGenerator: clientAddress } };

  app.get('/api/personas/public-key', { schema: { querystring: NoQuery, response: { 200: DataEnvelope(PublicKey), 400: ErrorBody } } }, async () => ({
    data: {
      algorithm: 'Ed25519' as const,
      keyId: deps.key.keyId,
      publicKeyPem: deps.key.publicKeyPem,
      log: { origin: deps.publicLog.origin, verifierKey: deps.publicLog.verifierKey },
    },
  }));

  app.get(
    '/api/personas/:personaId/verify',
    {
      config: limited,
      schema: {
        params: PersonaIdParams,
        querystring: NoQuery,
        response: { 200: DataEnvelope(PersonaVerification), 400: ErrorBody, 404: ErrorBody, 429: ErrorBody },
      },
    },
    async (request) => {
      const row = await repo.findPersona(db, personaIdOf(request.params.personaId));
      if (!row || row.status !== 'ready' || !row.signature || !row.key_id || !row.sha256) throw notFound('No finished Persona has this ID');
      const [copy, log] = await Promise.all([copyNumberOf(db, row.persona_id), logPlaceOf(db, row.persona_id, deps.publicLog.origin)]);
      return { data: { ...publicVerification(row, await deps.publicKeys()), copy, log, licence: licenceOf(row) } };
    },
  );

  app.post(
    '/api/personas/verify',
    {
      config: limited,
      schema: {
        consumes: ['multipart/form-data'],
        querystring: NoQuery,
        response: { 200: DataEnvelope(FileVerification), 400: ErrorBody, 413: ErrorBody, 415: ErrorBody, 422: ErrorBody, 503: ErrorBody },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart()) throw unsupportedMediaType('Send the Persona as multipart/form-data in the field "file"');
      const upload = await receiveCopy(request, deps.uploadsDir, MAX_UPLOAD, 'The file must be under 10MB');
      try {
        const format = copyFormat(upload.head);
        if (!format) throw unsupportedMediaType('The file must be a PDF or an EPUB');
        // Read on an untrusted-file thread within its budget; over it, a 413 or 422 naming the limit.
        const inspected = await deps.copyChecks.run('inspectCopy', upload.path, { file: COPY_NAME[format], signal: abandonedSignal(reply) });
        return { data: await verifyFile(db, await deps.publicKeys(), inspected) };
      } finally {
        await discardUploads([upload]);
      }
    },
  );
}
