/** The page tree's view of a PDF's objects, from this pass's reading or from pdf-lib's. */
import {
  PDFArray,
  PDFCatalog,
  PDFDict,
  PDFName,
  PDFPageLeaf,
  PDFPageTree,
  PDFRef,
  type PDFObject,
} from 'pdf-lib';
import { MAX_DEPTH, notPlain, type DictInfo, type Ref } from './pdfTokens';

/** What the page tree needs of an object; pdf-lib's classes by `/Type`, and the keys its walk reads. */
export interface Node {
  kind: 'catalog' | 'pages' | 'page' | 'other';
  /** `/Kids` when a direct array of references; null when present but anything else. */
  kids?: Ref[] | null;
  /** The catalog's `/Pages` when a reference; null when present but anything else. */
  pages?: Ref | null;
}

/** The trailer keys pdf-lib keeps, as it merges trailers (a later one's key wins when present). */
export interface TrailerInfo {
  root?: Ref | null;
  encrypt: boolean;
}

/** What pdf-lib looks up to decode an object or cross-reference stream and to read its entries. */
export const STREAM_READING_KEYS = ['Filter', 'DecodeParms', 'N', 'First', 'Size', 'Index', 'W'];

export function holdsRef(value: PDFObject | undefined): boolean {
  if (value instanceof PDFRef) return true;
  if (value instanceof PDFArray) return value.asArray().some(holdsRef);
  if (value instanceof PDFDict) return value.values().some(holdsRef);
  return false;
}

export const refOf = (ref: PDFRef): Ref => ({ num: ref.objectNumber, gen: ref.generationNumber });

/** pdf-lib's class for a dictionary it parsed (`PDFObjectParser.parseDict`), by its direct `/Type`. */
export function nodeOf(dict: DictInfo): Node {
  const kind =
    dict.type === 'Catalog'
      ? 'catalog'
      : dict.type === 'Pages'
        ? 'pages'
        : dict.type === 'Page'
          ? 'page'
          : 'other';
  return { kind, kids: dict.kids, pages: dict.pages };
}

/** The same of an object pdf-lib parsed from an object stream. */
export function nodeOfPdfLib(object: PDFObject): Node {
  if (object instanceof PDFCatalog) {
    const pages = object.get(PDFName.of('Pages'));
    return {
      kind: 'catalog',
      pages: pages === undefined ? undefined : pages instanceof PDFRef ? refOf(pages) : null,
    };
  }
  if (object instanceof PDFPageTree) {
    const kids = object.get(PDFName.of('Kids'));
    const refs = kids instanceof PDFArray ? kids.asArray() : undefined;
    return {
      kind: 'pages',
      kids: refs?.every((k) => k instanceof PDFRef) ? refs.map((k) => refOf(k as PDFRef)) : null,
    };
  }
  if (object instanceof PDFPageLeaf) return { kind: 'page' };
  return { kind: 'other' };
}

/**
 * Page-tree visits, far above the tree of any PDF within the page limit: a tree that shares its nodes can
 * make pdf-lib's walk exponential.
 */
const MAX_TREE_VISITS = 10_000;

/** pdf-lib's `getPageCount()`: the leaves of a page tree, walked as pdf-lib walks it. */
export function countPageLeaves(root: Node, lookup: (ref: Ref) => Node): number {
  let count = 0;
  let visits = 0;
  const path = new Set<Node>();
  const walk = (node: Node) => {
    if (path.has(node) || path.size >= MAX_DEPTH) notPlain();
    path.add(node);
    for (const ref of node.kids ?? notPlain()) {
      if (++visits > MAX_TREE_VISITS) notPlain();
      const kid = lookup(ref);
      if (kid.kind === 'pages') walk(kid);
      else if (kid.kind === 'page') count += 1;
      else notPlain();
    }
    path.delete(node);
  };
  walk(root);
  return count;
}
