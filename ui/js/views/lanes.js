// An app's lanes beside the reset policies they follow: the configured
// policies (GET /v1/apps/{app}/reset-policies), and per lane the one it
// follows and what it did to it.
import {call, path, query, explain} from '../api.js';
import {h, table, when} from '../dom.js';
import {link} from '../router.js';
import {appTabs, paged} from './apps.js';

function flags(lane) {
  const out = [];
  if (lane.suspended) out.push('suspended');
  if (lane.resume_pending) out.push(`resume pending (${lane.resume_reason})`);
  if (lane.was_auto_reset) out.push(`auto reset: ${lane.auto_reset_reason}`);
  if (lane.is_fresh_reset) out.push('fresh reset');
  return out.join(', ') || '—';
}

// A reset policy in words: "idle after 60 min", "daily at 04:00", both, or never.
export function policyText(policy) {
  const idle = `idle after ${policy.idle_minutes} min`;
  const daily = `daily at ${String(policy.at_hour).padStart(2, '0')}:00`;
  const what = {none: 'never', idle, daily, both: `${idle} or ${daily}`}[policy.mode] ?? policy.mode;
  return policy.notify ? `${what}; notify` : what;
}

// The policy a lane follows, by docs/api.md's rule: the first override whose
// platform and chat_type (those it names) equal the lane's, else the default.
export function policyFor(policies, lane) {
  const same = (wanted, value) => wanted === undefined || wanted === (value ?? '');
  const index = policies.overrides.findIndex(o => same(o.match.platform, lane.platform) &&
    same(o.match.chat_type, lane.chat_type));
  if (index < 0) return {name: 'default', policy: policies.default};
  return {name: `override ${index + 1}`, policy: policies.overrides[index].policy};
}

function matchText(match) {
  const parts = [];
  if (match.platform !== undefined) parts.push(`platform ${match.platform}`);
  if (match.chat_type !== undefined) parts.push(`chat type ${match.chat_type}`);
  return parts.join(', ');
}

function policiesTable(policies) {
  const rows = [
    ...policies.overrides.map((o, i) => ({name: `override ${i + 1}`, match: matchText(o.match), policy: o.policy})),
    {name: 'default', match: 'every other lane', policy: policies.default},
  ];
  return h('div', {class: 'policies'},
    h('p', {}, 'Daily resets are read in time zone ', h('code', {}, policies.timezone),
      '; the first override that matches a lane wins.'),
    table([
      {label: 'policy', cell: r => r.name},
      {label: 'applies to', cell: r => r.match},
      {label: 'mode', cell: r => r.policy.mode},
      {label: 'resets', cell: r => policyText(r.policy)},
    ], rows));
}

export async function lanes({params}) {
  const {app} = params;
  let policies = null;
  let policyError = null;
  try {
    policies = await call(`/v1/apps/${path(app)}/reset-policies`);
  } catch (error) {
    policyError = explain(error);
  }
  const list = paged(async token => {
    const answer = await call(`/v1/apps/${path(app)}/lanes${query({limit: 50, page_token: token})}`);
    return {items: answer.lanes, next: answer.next_page_token};
  }, rows => table([
    {label: 'lane', cell: r => h('code', {}, r.lane)},
    {label: 'user', cell: r => h('a', {href: link('user', {app, user: r.user})}, r.user)},
    {label: 'session', cell: r => h('a', {href: link('session', {app, user: r.user, session: r.session_id})},
      r.session_id)},
    {label: 'platform', cell: r => r.platform ?? '—'},
    {label: 'chat', cell: r => r.chat_type ?? '—'},
    {label: 'policy', cell: r => {
      if (!policies) return '—';
      const {name, policy} = policyFor(policies, r);
      return h('span', {class: 'policy'}, h('strong', {}, name), `: ${policyText(policy)}`);
    }},
    {label: 'what it did', cell: flags},
    {label: 'version', cell: r => r.version},
    {label: 'updated', cell: r => when(r.updated_at)},
  ], rows, 'This app has no lane.'));
  return h('section', {}, h('h2', {}, 'Lanes ', h('code', {}, app)), appTabs(app, 'lanes'),
    h('h3', {}, 'Reset policies'),
    policies ? policiesTable(policies) : h('p', {class: 'error'}, policyError),
    h('h3', {}, 'Lanes, newest first'),
    h('p', {class: 'note'}, 'Each lane shows the policy it follows and what it did to the lane (auto resets ' +
      'and their reason, suspension, pending resumes).'),
    list);
}
