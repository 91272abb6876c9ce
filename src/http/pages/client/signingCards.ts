import { el } from './dom';
import type { Person, SigningContext } from './signingModel';

const DISCLOSURE =
  'You are about to sign electronically. Your electronic signature has the same legal effect as a handwritten ' +
  'one (the federal ESIGN Act and your state’s UETA). You may ask to sign on paper instead: tell your notary ' +
  'before you sign, and withdraw this consent until you sign by telling your notary. Your documents are kept as electronic records, and you can download them once the ' +
  'notarization is complete; keep a copy. To view them you need this browser and a PDF reader.';
const STYLES: Array<[string, string]> = [
  ['dancing-script', 'Flowing'],
  ['great-vibes', 'Formal'],
  ['caveat', 'Casual'],
];

const initialsOf = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .map((p) => p[0].toUpperCase())
    .join('');

/** A canvas to draw a mark on with a finger or a mouse; its strokes in the canvas's own units. */
function drawPad(width: number, height: number, label: string) {
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
  const at = (e: PointerEvent) => {
    const r = canvas.getBoundingClientRect();
    return [
      Math.round(((e.clientX - r.left) / r.width) * width),
      Math.round(((e.clientY - r.top) / r.height) * height),
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

/** The ESIGN disclosure and the participant's consent to it. */
export function consentCard(ctx: SigningContext, person: Person): HTMLElement {
  const card = el('section', undefined, {
    class: 'card consent',
    'aria-labelledby': `consent-${person.participant}`,
  });
  card.append(
    el('h2', `Consent to sign electronically: ${person.name}`, { id: `consent-${person.participant}` }),
  );
  card.append(el('p', DISCLOSURE));
  const agree = el('button', 'I agree to sign electronically', { type: 'button' });
  agree.addEventListener('click', async () => {
    if (await ctx.call('/consent', ctx.withIndex(person, { accepted: true }))) await ctx.refresh();
  });
  card.append(agree);
  return card;
}

/** The handwriting styles with a preview of each, and "Draw it". */
function styleChoice() {
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

/** The adoption of a signature and initials: typed in a style, or drawn. */
export function adoptCard(ctx: SigningContext, person: Person): HTMLElement {
  const card = el('section', undefined, {
    class: 'card adopt',
    'aria-labelledby': `adopt-${person.participant}`,
  });
  card.append(el('h2', `Adopt your signature: ${person.name}`, { id: `adopt-${person.participant}` }));
  const form = el('form');
  const nameLabel = el('label', 'Your full name');
  const name = el('input', undefined, {
    name: 'name',
    autocomplete: 'name',
    maxlength: '64',
    value: person.name,
  });
  nameLabel.append(name);
  const initLabel = el('label', 'Your initials');
  const initials = el('input', undefined, {
    name: 'initials',
    maxlength: '8',
    value: initialsOf(person.name),
  });
  initLabel.append(initials);
  const { styles, previews } = styleChoice();
  const pads = el('div', undefined, { class: 'pads', hidden: '' });
  const sig = drawPad(600, 150, 'Draw your signature here');
  const ini = drawPad(300, 150, 'Draw your initials here');
  pads.append(
    el('p', 'Draw your signature'),
    sig.canvas,
    sig.clear,
    el('p', 'Draw your initials'),
    ini.canvas,
    ini.clear,
  );
  const showPreviews = () => {
    for (const [img, style] of previews)
      img.src = `${ctx.base}/signature_preview?style=${style}&text=${encodeURIComponent(name.value.trim() || person.name)}`;
  };
  name.addEventListener('change', showPreviews);
  styles.addEventListener('change', () => {
    pads.hidden = (form.elements.namedItem('style') as RadioNodeList).value !== 'drawn';
  });
  showPreviews();
  const adopt = el('button', 'Adopt and continue', { type: 'submit' });
  form.append(nameLabel, initLabel, styles, pads, adopt);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const style = (form.elements.namedItem('style') as RadioNodeList).value;
    const drawn = style === 'drawn';
    if (drawn && (!sig.strokes.length || !ini.strokes.length)) {
      ctx.status.textContent = 'Draw both your signature and your initials first.';
      return;
    }
    const typed = (text: string) => ({ method: 'typed', style, text });
    const body = {
      signature: drawn ? { method: 'drawn', strokes: sig.strokes } : typed(name.value.trim() || person.name),
      initials: drawn
        ? { method: 'drawn', strokes: ini.strokes }
        : typed(initials.value.trim() || initialsOf(person.name)),
    };
    if (await ctx.call('/adopted_signature', ctx.withIndex(person, body))) await ctx.refresh();
  });
  card.append(form);
  return card;
}
