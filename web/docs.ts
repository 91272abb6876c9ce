/** The API documentation page: Swagger UI on this service's OpenAPI document, every control named. */
declare const SwaggerUIBundle: (options: { url: string; dom_id: string }) => unknown;

const root = document.getElementById('swagger-ui')!;
SwaggerUIBundle({ url: root.dataset.spec!, dom_id: '#swagger-ui' });

/** What a select of Swagger UI's chooses: the server, or what the words beside it say. */
function nameOf(select: HTMLSelectElement): string {
  if (select.id === 'servers') return 'Server';
  const words = select.closest('label, div')?.querySelector('small, span, label')?.textContent?.trim();
  return words || 'Choose';
}

// Swagger UI leaves some of its selects without an accessible name; each is named as it appears.
new MutationObserver(() => {
  for (const select of root.querySelectorAll<HTMLSelectElement>('select:not([aria-label])'))
    select.setAttribute('aria-label', nameOf(select));
}).observe(root, { childList: true, subtree: true });
