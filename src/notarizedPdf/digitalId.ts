import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import forge from 'node-forge';
import { type Config } from '../config';
import { ConfigError } from '../configError';

export interface DigitalId {
  p12: Buffer;
  passphrase: string;
}

function certificate(
  subject: forge.pki.CertificateField[],
  publicKey: forge.pki.PublicKey,
  issuer: forge.pki.CertificateField[],
  issuerKey: forge.pki.rsa.PrivateKey,
  ca: boolean,
): forge.pki.Certificate {
  const cert = forge.pki.createCertificate();
  cert.publicKey = publicKey;
  cert.serialNumber = `01${crypto.randomBytes(8).toString('hex')}`;
  cert.validity.notBefore = new Date(Date.now() - 24 * 3600 * 1000);
  cert.validity.notAfter = new Date(Date.now() + 10 * 365 * 24 * 3600 * 1000);
  cert.setSubject(subject);
  cert.setIssuer(issuer);
  cert.setExtensions(
    ca
      ? [
          { name: 'basicConstraints', cA: true, critical: true },
          { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
        ]
      : [
          { name: 'basicConstraints', cA: false },
          { name: 'keyUsage', digitalSignature: true, nonRepudiation: true, critical: true },
        ],
  );
  cert.sign(issuerKey, forge.md.sha256.create());
  return cert;
}

function rsaKeys() {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 3072 });
  return {
    privateKey: forge.pki.privateKeyFromPem(
      privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    ) as forge.pki.rsa.PrivateKey,
    publicKey: forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString()),
  };
}

/** A development CA and a document-signing certificate it issued, as PKCS#12 plus the CA in PEM. */
function developmentIdentity(dir: string): DigitalId {
  const p12File = path.join(dir, 'signer.p12');
  const passFile = path.join(dir, 'passphrase');
  if (!fs.existsSync(p12File)) {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const caKeys = rsaKeys();
    const caName = [
      { name: 'commonName', value: 'Notarization Service Development CA' },
      { name: 'organizationName', value: 'Notarization Service (development)' },
    ];
    const ca = certificate(caName, caKeys.publicKey, caName, caKeys.privateKey, true);
    const keys = rsaKeys();
    const signerName = [
      { name: 'commonName', value: 'Notarization Service Document Signing (development)' },
      { name: 'organizationName', value: 'Notarization Service (development)' },
    ];
    const signer = certificate(signerName, keys.publicKey, caName, caKeys.privateKey, false);
    const passphrase = crypto.randomBytes(24).toString('base64url');
    const p12 = forge.asn1
      .toDer(forge.pkcs12.toPkcs12Asn1(keys.privateKey, [signer, ca], passphrase, { algorithm: '3des' }))
      .getBytes();
    // Written to temporary names and renamed, so a concurrent reader never sees half a file.
    const suffix = `.${process.pid}.tmp`;
    fs.writeFileSync(path.join(dir, 'ca.pem') + suffix, forge.pki.certificateToPem(ca));
    fs.writeFileSync(passFile + suffix, passphrase, { mode: 0o600 });
    fs.writeFileSync(p12File + suffix, Buffer.from(p12, 'binary'), { mode: 0o600 });
    fs.renameSync(path.join(dir, 'ca.pem') + suffix, path.join(dir, 'ca.pem'));
    fs.renameSync(passFile + suffix, passFile);
    fs.renameSync(p12File + suffix, p12File);
  }
  return { p12: fs.readFileSync(p12File), passphrase: fs.readFileSync(passFile, 'utf8') };
}

/**
 * The certificate that signs notarized PDFs: SIGNING_P12_PATH / SIGNING_P12_PASSPHRASE in production;
 * elsewhere a development CA and certificate generated once under DATA_DIR/signing.
 */
export function loadDigitalId(config: Config): DigitalId {
  if (config.signingP12Path) {
    const identity = {
      p12: fs.readFileSync(config.signingP12Path),
      passphrase: config.signingP12Passphrase ?? '',
    };
    // Fail at start-up, not at the first completion, when the passphrase does not open the file.
    forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(identity.p12.toString('binary')), identity.passphrase);
    return identity;
  }
  if (config.nodeEnv === 'production') {
    throw new ConfigError('SIGNING_P12_PATH and SIGNING_P12_PASSPHRASE must be set in production');
  }
  return developmentIdentity(path.join(config.dataDir, 'signing'));
}
