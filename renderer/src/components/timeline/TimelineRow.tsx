import { memo } from 'react';
import type { TimelineItem } from '../../state/timeline-items';
import { ToolCard } from '../cards/ToolCard';
import { QuestionCard } from '../cards/QuestionCard';
import { ApprovalCard } from '../cards/ApprovalCard';
import { ElicitationCard } from '../cards/ElicitationCard';
import { PlanCard } from '../cards/PlanCard';
import { HookCard } from '../cards/HookCard';
import { PanelCard } from '../panels/PanelCard';
import { ForkRow, RewindRow } from '../rewind/RewindRow';
import {
  AssistantRow,
  DeviceCallRow,
  DiagnosticsRow,
  ErrorRow,
  NoticeRow,
  ProjectSwitchRow,
  UserRow,
} from './SimpleRows';

/** One row; memoized, so a row re-renders only when its own item changes (items keep identity). */
export const TimelineRow = memo(function TimelineRow({ item }: { item: TimelineItem }) {
  switch (item.kind) {
    case 'user':
      return <UserRow item={item} />;
    case 'assistant':
      return <AssistantRow item={item} />;
    case 'tool':
      return <ToolCard item={item} />;
    case 'question':
      return <QuestionCard item={item} />;
    case 'elicitation':
      return <ElicitationCard item={item} />;
    case 'approval':
      return <ApprovalCard item={item} />;
    case 'plan':
      return <PlanCard item={item} />;
    case 'panel':
      return <PanelCard item={item} />;
    case 'project_switch':
      return <ProjectSwitchRow item={item} />;
    case 'error':
      return <ErrorRow item={item} />;
    case 'notice':
      return <NoticeRow item={item} />;
    case 'device_call':
      return <DeviceCallRow item={item} />;
    case 'diagnostics':
      return <DiagnosticsRow item={item} />;
    case 'rewind':
      return <RewindRow item={item} />;
    case 'fork':
      return <ForkRow item={item} />;
    case 'hook':
      return <HookCard item={item} />;
  }
});
