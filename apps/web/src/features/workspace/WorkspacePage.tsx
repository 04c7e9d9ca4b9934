import { useBreakpoint, usesNarrowLayout } from '../../shared/breakpoints';
import { AssistantLauncher } from '../assistant/AssistantLauncher';
import { NarrowLayout } from './narrow/NarrowLayout';
import { WideLayout } from './WideLayout';

/** /desktop picks its layout by width; /phone always uses the narrow layout. */
export function WorkspacePage({ forceNarrow = false }: { forceNarrow?: boolean }) {
  const breakpoint = useBreakpoint();
  const narrow = forceNarrow || usesNarrowLayout(breakpoint);
  return (
    <>
      {narrow ? <NarrowLayout /> : <WideLayout />}
      {/* The narrow layout shows it with its chart (NarrowLayout). */}
      {!narrow && <AssistantLauncher placement="side-strip" />}
    </>
  );
}
