const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

/** A minimal page: its programs come from web/ as /assets bundles, its style inline (allowed by hash). */
export function page(title: string, body: string, style = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;color:#222}
button{font-size:1rem;padding:.6rem 1.2rem}.muted{color:#595959}[hidden]{display:none!important}${style}</style>
</head>
<body>
${body}
</body>
</html>`;
}
