import type { Annotation } from '../../core/session/request';

/** The first annotation placed beyond the document's pages, as a message naming it; else undefined. */
export function annotationProblem(
  annotations: Annotation[],
  pageCount: number | null,
  label: string,
): string | undefined {
  if (pageCount === null) return undefined;
  const index = annotations.findIndex((a) => a.pageNum > pageCount);
  if (index < 0) return undefined;
  const pages = pageCount === 1 ? '1 page' : `${pageCount} pages`;
  return `${label}[${index}].pageNum must be within the document's ${pages}`;
}
