// The /panel page: signs in with the specified flow (e-mail and password, authenticator code, company choice), shows
// the person's dashboard (GET /widgets/tableros/mio) and keeps it live from the dashboard's event stream.
import { api, ApiError, keepTokens, savedTokens, type TokenPair } from './api.js';
import { openStream } from './sse.js';
import { PanelView, type WidgetData } from './render.js';

interface Panel {
  panelId: string;
  widgetId: string;
  params: Record<string, unknown>;
  position: { x: number; y: number; w: number; h: number };
  readable: boolean;
}
interface Dashboard {
  id: string;
  title: string;
  panels: Panel[];
}
interface CatalogEntry {
  id: string;
  title: string;
  description: string;
}
interface WidgetAnswer {
  panelId?: string;
  widgetId: string;
  asOf: { position: string; computedAt: string };
  data: WidgetData;
}
interface Company {
  id: string;
  name: string;
  roles: string[];
}

const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;
const screens = ['signin', 'code', 'company', 'dashboard'] as const;
type Screen = (typeof screens)[number];

function show(screen: Screen): void {
  for (const s of screens) $(s).hidden = s !== screen;
  $('signout').hidden = screen === 'signin' || screen === 'code';
  const focus = $(screen).querySelector<HTMLElement>('[autofocus], input, button, h1, h2');
  focus?.focus();
}

function say(id: string, text: string): void {
  $(id).textContent = text;
}

const DEVICE_KEY = 'panel.deviceToken';
let challenge = '';
let stopStream: (() => void) | null = null;
let views = new Map<string, PanelView>();
let shownPanels: Panel[] = [];

const failure = (err: unknown): string => (err instanceof Error ? err.message : String(err));

async function signIn(event: SubmitEvent): Promise<void> {
  event.preventDefault();
  say('signin-error', '');
  const form = event.target as HTMLFormElement;
  const data = new FormData(form);
  const deviceToken = localStorage.getItem(DEVICE_KEY);
  try {
    const answer = await api<{ challenge: string; enrollment?: { secret: string; qrPng: string } }>(
      'POST',
      '/auth/login',
      { email: data.get('email'), password: data.get('password'), ...(deviceToken ? { deviceToken } : {}) },
      false,
    );
    challenge = answer.challenge;
    const enrollment = $('enrollment');
    enrollment.hidden = !answer.enrollment;
    if (answer.enrollment) {
      $<HTMLImageElement>('enrollment-qr').src = answer.enrollment.qrPng;
      say('enrollment-secret', answer.enrollment.secret);
    }
    (form.elements.namedItem('password') as HTMLInputElement).value = '';
    show('code');
  } catch (err) {
    say('signin-error', failure(err));
  }
}

async function verify(event: SubmitEvent): Promise<void> {
  event.preventDefault();
  say('code-error', '');
  const form = event.target as HTMLFormElement;
  const code = (form.elements.namedItem('code') as HTMLInputElement).value.trim();
  try {
    const signed = await api<TokenPair & { deviceToken: string }>('POST', '/auth/verify-2fa', { challenge, code }, false);
    localStorage.setItem(DEVICE_KEY, signed.deviceToken);
    keepTokens({ accessToken: signed.accessToken, refreshToken: signed.refreshToken, expiresIn: signed.expiresIn });
    form.reset();
    await chooseCompany();
  } catch (err) {
    say('code-error', failure(err));
    if (err instanceof ApiError && err.type?.endsWith('invalid-challenge')) show('signin');
  }
}

async function chooseCompany(): Promise<void> {
  const { items } = await api<{ items: Company[] }>('GET', '/tenants');
  if (items.length === 1) return selectCompany(items[0]!);
  const list = $('companies');
  list.replaceChildren();
  if (items.length === 0) say('company-error', 'Your account belongs to no company yet.');
  for (const company of items) {
    const item = document.createElement('li');
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = company.name;
    button.addEventListener('click', () => void selectCompany(company).catch((err) => say('company-error', failure(err))));
    item.append(button);
    list.append(item);
  }
  show('company');
}

async function selectCompany(company: Company): Promise<void> {
  const selected = await api<{ company: { id: string; name: string } }>('POST', `/tenants/${encodeURIComponent(company.id)}/select`);
  say('company-name', ` · ${selected.company.name}`);
  await openDashboard();
}

async function openDashboard(): Promise<void> {
  show('dashboard');
  say('status', 'Loading the dashboard…');
  try {
    const [dashboard, catalog] = await Promise.all([
      api<Dashboard>('GET', '/widgets/tableros/mio'),
      api<{ items: CatalogEntry[] }>('GET', '/widgets/catalogo'),
    ]);
    drawLayout(dashboard, catalog.items);
    live(dashboard.id, catalog.items);
  } catch (err) {
    say('status', `The dashboard could not be loaded: ${failure(err)}`);
  }
}

function drawLayout(dashboard: Dashboard, catalog: CatalogEntry[]): void {
  say('dashboard-title', dashboard.title);
  for (const view of views.values()) view.destroy();
  views = new Map();
  const grid = $('grid');
  const titles = new Map(catalog.map((c) => [c.id, c]));
  // DOM order is reading order (rows, then columns): the focus order follows the layout.
  const panels = [...dashboard.panels].sort((a, b) => a.position.y - b.position.y || a.position.x - b.position.x);
  shownPanels = panels;
  for (const panel of panels) {
    const entry = titles.get(panel.widgetId);
    const view = new PanelView(panel.panelId, panel.widgetId, entry?.title ?? panel.widgetId, entry?.description ?? '');
    view.root.classList.add(`w-${Math.min(12, Math.max(1, panel.position.w))}`, `h-${Math.min(12, Math.max(1, panel.position.h))}`);
    grid.append(view.root);
    if (!panel.readable) view.message('You may not see this widget.');
    else views.set(panel.panelId, view);
  }
  say('status', panels.length === 0 ? 'This dashboard has no panels.' : `Showing ${views.size} panels.`);
}

function live(dashboardId: string, catalog: CatalogEntry[]): void {
  stopStream?.();
  stopStream = openStream(`/widgets/tableros/${encodeURIComponent(dashboardId)}/eventos`, {
    message(message) {
      if (message.event === 'widget') {
        const answer = JSON.parse(message.data) as WidgetAnswer;
        const view = views.get(answer.panelId ?? '');
        // Announced (aria-live) only when a panel already drawn changes, not on the first drawing.
        const drawn = (view?.position ?? -1n) >= 0n;
        if (view?.update(answer.data, answer.asOf) && drawn)
          say('updates', `${view.root.querySelector('h2')?.textContent ?? 'A panel'} updated at ${new Date().toLocaleTimeString()}.`);
      } else if (message.event === 'layout') {
        drawLayout(JSON.parse(message.data) as Dashboard, catalog);
        void loadOnce();
      }
    },
    state(state, detail) {
      if (state !== 'open') void loadOnce();
      const text = { open: 'Live', reconnecting: `Reconnecting (${detail ?? ''})…`, closed: detail ?? 'Not live' }[state];
      say('live', text);
      $('live').dataset.state = state;
    },
  });
}

/** Without the live stream (refused, or the company's stream slots are all taken): each panel's data read once. */
async function loadOnce(): Promise<void> {
  for (const panel of shownPanels) {
    const view = views.get(panel.panelId);
    if (!view || view.position >= 0n) continue;
    const query = new URLSearchParams(Object.entries(panel.params).map(([k, v]): [string, string] => [k, String(v)]));
    try {
      const answer = await api<WidgetAnswer>('GET', `/widgets/${encodeURIComponent(panel.widgetId)}/datos?${query.toString()}`);
      view.update(answer.data, answer.asOf);
    } catch (err) {
      view.message(failure(err));
    }
  }
}

async function signOut(): Promise<void> {
  stopStream?.();
  stopStream = null;
  try {
    if (savedTokens()) await api('POST', '/auth/logout');
  } catch {
    // the session may be over already: the tokens are dropped all the same
  }
  keepTokens(null);
  for (const view of views.values()) view.destroy();
  views = new Map();
  $('grid').replaceChildren();
  show('signin');
}

/** A reload of the tab keeps its session (sessionStorage): back to the dashboard when a company is selected. */
async function resume(): Promise<void> {
  if (!savedTokens()) return show('signin');
  try {
    const me = await api<{ company: { name: string } | null }>('GET', '/auth/me');
    if (!me.company) return await chooseCompany();
    say('company-name', ` · ${me.company.name}`);
    await openDashboard();
  } catch {
    keepTokens(null);
    show('signin');
  }
}

$<HTMLFormElement>('signin-form').addEventListener('submit', (e) => void signIn(e));
$<HTMLFormElement>('code-form').addEventListener('submit', (e) => void verify(e));
$('signout').addEventListener('click', () => void signOut());
$('back').addEventListener('click', () => show('signin'));
void resume();
