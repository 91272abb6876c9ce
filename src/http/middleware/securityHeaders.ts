import crypto from 'node:crypto';
import helmet from 'koa-helmet';
import type { Next } from 'koa';
import type { AppContext, AppMiddleware } from '../context';

/** The pages that take a credential (a signing or login link, a notary's token, a signed completion link). */
const CREDENTIALED_PAGES = [/^\/sign\//, /^\/auto\//, /^\/notary(\/|$)/, /^\/complete$/];
/** Swagger UI writes inline styles of its own; the docs page holds no credential. */
const DOCS = /^\/docs(\/|$)/;

const INLINE = (tag: 'script' | 'style') => new RegExp(`<${tag}(?:\\s[^>]*)?>([\\s\\S]*?)</${tag}>`, 'g');

function hashesOf(html: string, tag: 'script' | 'style'): string[] {
  const hashes: string[] = [];
  for (const [element, body] of html.matchAll(INLINE(tag))) {
    // A JSON data block is never run; only an inline script or style needs its hash allowed.
    if (tag === 'script' && /^<script[^>]*\btype="application\/json"/.test(element)) continue;
    if (tag === 'script' && /^<script[^>]*\bsrc=/.test(element)) continue;
    hashes.push(`'sha256-${crypto.createHash('sha256').update(body).digest('base64')}'`);
  }
  return hashes;
}

/** A strict policy for one HTML page: its own inline scripts and styles by hash, everything else from here. */
export function contentSecurityPolicy(html: string, path: string): string {
  const styles = DOCS.test(path) ? ["'unsafe-inline'"] : hashesOf(html, 'style');
  return [
    "default-src 'none'",
    `script-src 'self' ${hashesOf(html, 'script').join(' ')}`.trim(),
    `style-src 'self' ${styles.join(' ')}`.trim(),
    "img-src 'self' data: blob:",
    "media-src 'self' blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * Every answer: nosniff, no framing, no referrer, HSTS when the service is reached over TLS (helmet). HTML
 * pages also get a Content-Security-Policy made for them, and credentialed pages are never cached.
 */
export function securityHeaders(publicBaseUrl: string): AppMiddleware[] {
  const overTls = publicBaseUrl.startsWith('https:');
  const base = helmet({
    contentSecurityPolicy: false,
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: overTls ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
  }) as AppMiddleware;
  const pages = async (ctx: AppContext, next: Next) => {
    await next();
    if (typeof ctx.body !== 'string' || !ctx.response.is('html')) return;
    ctx.set('Content-Security-Policy', contentSecurityPolicy(ctx.body, ctx.path));
    if (CREDENTIALED_PAGES.some((pattern) => pattern.test(ctx.path))) ctx.set('Cache-Control', 'no-store');
  };
  return [base, pages];
}
