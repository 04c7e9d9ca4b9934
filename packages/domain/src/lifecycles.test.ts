import { describe, expect, it } from 'vitest';
import { AI_TASK_CREATED, aiTaskTransition } from './ai/lifecycle.ts';
import { LIVE_RUN_CREATED, liveRunTransition } from './live-runs/lifecycle.ts';
import {
  OPTIMIZATION_CREATED,
  TRIAL_CREATED,
  optimizationTransition,
  trialTransition,
} from './optimization/lifecycle.ts';
import { IllegalTransition } from './trading/lifecycle.ts';

describe('AI task lifecycle', () => {
  it('runs from PENDING through PROCESSING to an end', () => {
    expect(AI_TASK_CREATED).toBe('PENDING');
    expect(aiTaskTransition('PENDING', 'Started')).toBe('PROCESSING');
    expect(aiTaskTransition('PROCESSING', 'Started')).toBe('PROCESSING');
    expect(aiTaskTransition('PROCESSING', 'Completed')).toBe('COMPLETED');
    expect(aiTaskTransition('PROCESSING', 'Failed')).toBe('FAILED');
    expect(aiTaskTransition('PROCESSING', 'Released')).toBe('PENDING');
    expect(aiTaskTransition('PENDING', 'Failed')).toBe('FAILED');
  });

  it('refuses to complete a waiting task or to move an ended one', () => {
    expect(() => aiTaskTransition('PENDING', 'Completed')).toThrow(
      'AI task: cannot Completed when PENDING',
    );
    expect(() => aiTaskTransition('PENDING', 'Released')).toThrow(IllegalTransition);
    for (const event of ['Started', 'Released', 'Completed', 'Failed'] as const) {
      expect(() => aiTaskTransition('COMPLETED', event)).toThrow(IllegalTransition);
      expect(() => aiTaskTransition('FAILED', event)).toThrow(IllegalTransition);
    }
  });
});

describe('live run lifecycle', () => {
  it('stays running across evaluations until stopped or failed', () => {
    expect(LIVE_RUN_CREATED).toBe('running');
    expect(liveRunTransition('running', 'Evaluated')).toBe('running');
    expect(liveRunTransition('running', 'Stopped')).toBe('stopped');
    expect(liveRunTransition('running', 'Failed')).toBe('failed');
  });

  it('refuses to move a stopped or failed run', () => {
    expect(() => liveRunTransition('stopped', 'Evaluated')).toThrow(
      'live run: cannot Evaluated when stopped',
    );
    expect(() => liveRunTransition('failed', 'Stopped')).toThrow(IllegalTransition);
    expect(() => liveRunTransition('stopped', 'Failed')).toThrow(IllegalTransition);
  });
});

describe('optimisation lifecycle', () => {
  it('runs from PENDING to an end, and may be cancelled while open', () => {
    expect(OPTIMIZATION_CREATED).toBe('PENDING');
    expect(optimizationTransition('PENDING', 'Started')).toBe('PROCESSING');
    expect(optimizationTransition('PROCESSING', 'Started')).toBe('PROCESSING');
    expect(optimizationTransition('PROCESSING', 'Completed')).toBe('COMPLETED');
    expect(optimizationTransition('PENDING', 'Cancelled')).toBe('CANCELLED');
    expect(optimizationTransition('PROCESSING', 'Cancelled')).toBe('CANCELLED');
  });

  it('refuses to move an ended optimisation', () => {
    expect(() => optimizationTransition('CANCELLED', 'Started')).toThrow(
      'optimization: cannot Started when CANCELLED',
    );
    expect(() => optimizationTransition('COMPLETED', 'Cancelled')).toThrow(IllegalTransition);
    expect(() => optimizationTransition('FAILED', 'Completed')).toThrow(IllegalTransition);
  });

  it('ends a queued trial once: done, failed or cancelled', () => {
    expect(TRIAL_CREATED).toBe('queued');
    expect(trialTransition('queued', 'Done')).toBe('done');
    expect(trialTransition('queued', 'Failed')).toBe('failed');
    expect(trialTransition('queued', 'Cancelled')).toBe('cancelled');
    expect(() => trialTransition('done', 'Failed')).toThrow(IllegalTransition);
    expect(() => trialTransition('cancelled', 'Done')).toThrow(IllegalTransition);
  });
});
