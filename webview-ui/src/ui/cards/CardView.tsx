import { Component, type ComponentChildren } from 'preact';
import type { MessageMenuContext, ToolCallCard } from '../../../../src/protocol';
import type { ChatCard } from '../../state/localCards';
import { validated } from '../../state/decodeInbound';
import { isFolded } from '../../state/foldedCards';
import { sameGroup } from '../../state/viewStore';
import { useView } from '../storeContext';
import { ToolGroupLine } from './ToolGroupLine';
import { TextCardView } from './TextCardView';
import { PlanCardView } from './PlanCardView';
import { PlanDraftCardView } from './PlanDraftCardView';
import { QuestionCardView } from './QuestionCardView';
import { ToolCallCardView } from './ToolCallCardView';
import { SummaryCardView } from './SummaryCardView';
import { InstructionsCardView } from './InstructionsCardView';
import { FactsCardView, LearnedCardView } from './FactCardViews';
import { ErrorCardView, UsageCardView, AgentStateCardView, RawCardView } from './SmallCards';

/**
 * A card that throws while rendering (a field shape the view did not expect) shows its JSON
 * instead of taking the whole panel down.
 */
export class CardView extends Component<{ card: ChatCard }, { failed?: string; failedCard?: ChatCard }> {
  override componentDidCatch(err: unknown): void {
    this.setState({ failed: String(err), failedCard: this.props.card });
  }
  override render() {
    // Nothing reaches the DOM unvalidated: snapshot cards are checked here, on first display.
    const card = validated(this.props.card);
    if (isFolded(card)) return <div class="card-folded" aria-hidden="true" data-card-kind={card.kind} data-card-id={card.id} />;
    const failed = this.state.failedCard === card ? this.state.failed : undefined;
    const body = failed === undefined ? <CardBody card={card} /> : (
      <div class="card card-raw" role="article" aria-label="Unrecognised message" data-card-kind={card.kind} data-card-id={card.id}>
        <RawCardView card={{ kind: 'raw', id: card.id, text: safeJson(card), error: failed, ts: 0 }} />
      </div>
    );
    return card.kind === 'tool_call' ? <InGroup card={card}>{body}</InGroup> : body;
  }
}

/**
 * A tool call that may be part of a run of looking-only calls shown as one line: the run's first
 * card is that line (and, opened, its own card); the others are folded until the line is opened.
 * A failed plan call that its plan's draft tells is folded.
 */
function InGroup({ card, children }: { card: ToolCallCard; children: ComponentChildren }) {
  const group = useView((s) => s.chat.group(card.id), sameGroup);
  const open = useView((s) => group !== undefined && s.openGroups.has(group.leader));
  // A failed plan call the plan's draft tells is folded, as the plan call that succeeded is.
  const drafted = useView((s) => card.status === 'error' && s.chat.toldByDraft(card.id));
  if (drafted) return <div class="card-folded" aria-hidden="true" data-card-kind={card.kind} data-card-id={card.id} />;
  if (!group) return <>{children}</>;
  if (card.id === group.leader) {
    return (
      <div class="tool-group">
        <ToolGroupLine group={group} open={open} />
        {open && children}
      </div>
    );
  }
  if (!open) return <div class="card-folded" aria-hidden="true" data-card-kind={card.kind} data-card-id={card.id} />;
  return <>{children}</>;
}

function safeJson(x: unknown): string {
  try { return JSON.stringify(x, null, 2) ?? String(x); } catch { return String(x); }
}

/** One card, wrapped in the element other tests find it by (`data-card-kind`, `data-card-id`). */
function CardBody({ card }: { card: ChatCard }) {
  let body;
  let label: string;
  try {
    switch (card.kind) {
      case 'text': body = <TextCardView card={card} />; label = card.author === 'user' ? 'You' : card.author === 'system' ? 'Notice' : 'Tandem'; break;
      case 'plan': body = <PlanCardView card={card} />; label = `Plan, version ${card.version}`; break;
      case 'plan_draft': body = <PlanDraftCardView card={card} />; label = 'Plan being written (draft)'; break;
      case 'question': body = <QuestionCardView card={card} />; label = 'Question'; break;
      case 'tool_call': body = <ToolCallCardView card={card} />; label = `Tool ${card.tool}`; break;
      case 'error': body = <ErrorCardView card={card} />; label = 'Error'; break;
      case 'usage': body = <UsageCardView card={card} />; label = 'Usage'; break;
      case 'summary': body = <SummaryCardView card={card} />; label = 'Run summary'; break;
      case 'instructions': body = <InstructionsCardView card={card} />; label = 'Project instructions'; break;
      case 'facts': body = <FactsCardView card={card} />; label = 'Facts sent'; break;
      case 'learned': body = <LearnedCardView card={card} />; label = 'Learned fact'; break;
      case 'agent_state': body = <AgentStateCardView card={card} />; label = 'Agent state'; break;
      case 'raw': body = <RawCardView card={card} />; label = 'Unrecognised message'; break;
      default: {
        const c = card as { id?: string; kind?: string };
        body = <RawCardView card={{ kind: 'raw', id: String(c.id), text: safeJson(card), error: `unknown card kind ${String(c.kind)}`, ts: 0 }} />;
        label = 'Unrecognised message';
      }
    }
  } catch (err) {
    body = <RawCardView card={{ kind: 'raw', id: card.id, text: safeJson(card), error: String(err), ts: 0 }} />;
    label = 'Unrecognised message';
  }
  const author = card.kind === 'text' ? ` author-${card.author}${card.note === 'condensed' ? ' note-condensed' : ''}` : '';
  // A message (the user's, the agent's, a tool call) has the chat's context menu: Remember… keeps a fact citing what it rests on.
  const message = card.kind === 'tool_call' || (card.kind === 'text' && card.author !== 'system');
  const menu = message ? JSON.stringify({ webviewSection: 'message', cardId: card.id } satisfies MessageMenuContext) : undefined;
  return (
    <div class={`card card-${card.kind}${author}`} role="article" aria-label={label} data-card-kind={card.kind} data-card-id={card.id} data-vscode-context={menu}>
      {body}
    </div>
  );
}
