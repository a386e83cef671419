import type { Lang } from '@kulu/shared';

/**
 * antd draws its icons as `<span role="img" aria-label="down">`: a screen reader on a Finnish page
 * read "down", "close", "search" (issue 37 item 19). An icon beside a control's own name (a button's
 * text, a menu entry's label, a labelled control) is a drawing and is hidden from the accessibility
 * tree; an icon that is all a control shows (a pagination arrow, a dialog's close) keeps a name, in
 * the interface language.
 */

/** Finnish names of antd's icons that stand alone in a control (by the icon's English name). */
const FINNISH: Record<string, string> = {
  left: 'edellinen',
  right: 'seuraava',
  'double-left': 'edelliset sivut',
  'double-right': 'seuraavat sivut',
  up: 'ylös',
  down: 'avaa',
  close: 'sulje',
  'close-circle': 'tyhjennä',
  search: 'hae',
  check: 'valittu',
  ellipsis: 'lisää',
  calendar: 'kalenteri',
  'swap-right': 'mihin',
  plus: 'lisää',
  minus: 'vähennä',
  delete: 'poista',
  edit: 'muokkaa',
  eye: 'näytä',
  'eye-invisible': 'piilota',
  'menu-fold': 'pienennä valikko',
  'menu-unfold': 'laajenna valikko',
  'question-circle': 'ohje',
  bell: 'hälytykset',
  'caret-up': 'nouseva',
  'caret-down': 'laskeva',
  filter: 'suodata',
  reload: 'lataa uudelleen',
  download: 'lataa',
  upload: 'lähetä',
  setting: 'asetukset',
  'info-circle': 'tietoa',
  'exclamation-circle': 'huomio',
  'check-circle': 'valmis',
  loading: 'ladataan',
};

/** An icon's name in `lang`: Finnish by the table, else as antd gives it (English). */
export function iconName(name: string, lang: Lang): string {
  return lang === 'fi' ? (FINNISH[name] ?? name) : name;
}

/** The controls an icon may belong to. */
const CONTROL = 'button, a, [role="button"], [role="menuitem"], [role="tab"], li, label';

/** Whether the control holding `icon` has a name of its own beside the icon. */
function namedBesides(icon: Element): boolean {
  const control = icon.parentElement?.closest(CONTROL);
  if (!control) return false;
  if (control.getAttribute('aria-label') || control.getAttribute('aria-labelledby')) return true;
  if (control.tagName !== 'LI' && control.getAttribute('title')) return true;
  const text = [...control.childNodes]
    .map((n) => (n instanceof Element && n.classList.contains('anticon') ? '' : (n.textContent ?? '')))
    .join('')
    .trim();
  return text.length > 0;
}

/** Names (or hides) one antd icon for `lang`; its English name is kept in data-icon. */
function nameIcon(icon: Element, lang: Lang): void {
  const english = icon.getAttribute('data-icon') ?? icon.getAttribute('aria-label');
  if (!english) return;
  if (!icon.hasAttribute('data-icon')) icon.setAttribute('data-icon', english);
  if (namedBesides(icon)) {
    icon.setAttribute('aria-hidden', 'true');
    return;
  }
  icon.removeAttribute('aria-hidden');
  const name = iconName(english, lang);
  if (icon.getAttribute('aria-label') !== name) icon.setAttribute('aria-label', name);
}

const ICONS = 'span.anticon[role="img"]';

/** What tells of a change of language (i18next's instance). */
export interface LanguageEvents {
  on(event: 'languageChanged', listener: () => void): unknown;
  off(event: 'languageChanged', listener: () => void): unknown;
}

/**
 * Keeps every antd icon under `root` named for the interface language as the page changes and when
 * the language changes; the returned function stops. `lang` is asked each time.
 */
export function watchIconNames(root: HTMLElement, lang: () => Lang, languages?: LanguageEvents): () => void {
  const all = () => renameIcons(root, lang());
  /** The icons of the control `node` sits in: text added beside an icon names its control. */
  const control = (node: Node) =>
    node.parentElement
      ?.closest(CONTROL)
      ?.querySelectorAll(ICONS)
      .forEach((icon) => nameIcon(icon, lang()));
  all();
  const observer = new MutationObserver((changes) => {
    for (const change of changes) {
      if (change.type === 'attributes') {
        const el = change.target as Element;
        const now = el.getAttribute('aria-label');
        const english = el.getAttribute('data-icon');
        // Our own write comes back as a change too; another label is antd's new icon name.
        if (!el.matches(ICONS) || now === null || !english || now === iconName(english, lang())) continue;
        el.setAttribute('data-icon', now);
        nameIcon(el, lang());
        continue;
      }
      for (const node of change.addedNodes) {
        if (node instanceof Element) {
          if (node.matches(ICONS)) nameIcon(node, lang());
          node.querySelectorAll(ICONS).forEach((icon) => nameIcon(icon, lang()));
        } else if (node.nodeType !== Node.TEXT_NODE) continue;
        control(node);
      }
    }
  });
  observer.observe(root, {
    subtree: true,
    childList: true,
    attributes: true,
    attributeFilter: ['aria-label'],
  });
  languages?.on('languageChanged', all);
  return () => {
    observer.disconnect();
    languages?.off('languageChanged', all);
  };
}

/** Names the icons under `root` for `lang` (all of them, as after a change of language). */
export function renameIcons(root: HTMLElement, lang: Lang): void {
  root.querySelectorAll(ICONS).forEach((icon) => nameIcon(icon, lang));
}
