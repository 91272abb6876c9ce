import { el } from './dom';
import type { Person, SigningContext } from './signingModel';
import { drawPad, styleChoice } from './markPicker';

const DISCLOSURE =
  'You are about to sign electronically. Your electronic signature has the same legal effect as a handwritten ' +
  'one (the federal ESIGN Act and your state’s UETA). You may ask to sign on paper instead: tell your notary ' +
  'before you sign, and withdraw this consent until you sign by telling your notary. Your documents are kept as electronic records, and you can download them once the ' +
  'notarization is complete; keep a copy. To view them you need this browser and a PDF reader.';
const initialsOf = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .map((p) => p[0].toUpperCase())
    .join('');

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
  const sig = drawPad('signature', 'Draw your signature here');
  const ini = drawPad('initials', 'Draw your initials here');
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
