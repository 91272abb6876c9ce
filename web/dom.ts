/** Small DOM helpers of the pages' browser code: elements are made with text, never HTML. */
export const el = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  text?: string | null,
  attrs: Record<string, string> = {},
): HTMLElementTagNameMap[K] => {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = text;
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
};

/** An element the page's HTML holds. */
export const byId = (id: string): HTMLElement => document.getElementById(id)!;
