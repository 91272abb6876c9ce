import { el } from './dom';
import { MARK_SIZE } from '../core/session/marks';
import type { SignatureKind } from '../core/session/signing';

const STYLES: Array<[string, string]> = [
  ['dancing-script', 'Flowing'],
  ['great-vibes', 'Formal'],
  ['caveat', 'Casual'],
];

/** A canvas of the mark's own size (core's MARK_SIZE) to draw on with a finger or a mouse; strokes in its units. */
export function drawPad(kind: SignatureKind, label: string) {
  const { width, height } = MARK_SIZE[kind];
  const canvas = el('canvas', undefined, {
    width: `${width}`,
    height: `${height}`,
    class: 'draw-pad',
    'aria-label': label,
    role: 'img',
  });
  const strokes: number[][][] = [];
  const pen = canvas.getContext('2d')!;
  pen.lineWidth = 4;
  pen.lineCap = 'round';
  pen.strokeStyle = '#1a2a6c';
  // The pad keeps the pointer while a finger slides past its edge: the mark stays on the pad's border,
  // as the service takes no point outside it.
  const clamp = (v: number, max: number) => Math.min(max, Math.max(0, Math.round(v)));
  const at = (e: PointerEvent) => {
    const r = canvas.getBoundingClientRect();
    return [
      clamp(((e.clientX - r.left) / r.width) * width, width),
      clamp(((e.clientY - r.top) / r.height) * height, height),
    ];
  };
  canvas.addEventListener('pointerdown', (e) => {
    canvas.setPointerCapture(e.pointerId);
    strokes.push([at(e)]);
  });
  canvas.addEventListener('pointermove', (e) => {
    const stroke = strokes[strokes.length - 1];
    if (!stroke || !canvas.hasPointerCapture(e.pointerId)) return;
    const [x, y] = at(e);
    const [px, py] = stroke[stroke.length - 1];
    stroke.push([x, y]);
    pen.beginPath();
    pen.moveTo(px, py);
    pen.lineTo(x, y);
    pen.stroke();
  });
  const clear = el('button', 'Clear', { type: 'button' });
  clear.addEventListener('click', () => {
    strokes.length = 0;
    pen.clearRect(0, 0, width, height);
  });
  return { canvas, clear, strokes };
}

/** The handwriting styles with a preview of each, and "Draw it". */
export function styleChoice() {
  const styles = el('fieldset');
  styles.append(el('legend', 'Choose a style, or draw your own'));
  const previews: Array<[HTMLImageElement, string]> = [];
  for (const [style, label] of [...STYLES, ['drawn', 'Draw it']] as Array<[string, string]>) {
    const option = el('label', undefined, { class: 'style-option' });
    const radio = el('input', undefined, { type: 'radio', name: 'style', value: style });
    if (style === STYLES[0][0]) radio.checked = true;
    option.append(radio, el('span', label));
    if (style !== 'drawn') {
      const img = el('img', undefined, {
        alt: `Your signature in the ${label.toLowerCase()} style`,
        class: 'preview',
      });
      previews.push([img, style]);
      option.append(img);
    }
    styles.append(option);
  }
  return { styles, previews };
}
