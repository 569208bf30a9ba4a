import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, useState } from 'react';
import type { LogLine } from './use-operation.ts';

const ROW_HEIGHT = 20;

/**
 * A log of any length: only the visible lines are in the page (100k lines scroll like 100). It
 * follows new lines while scrolled to the bottom, and stops following when the reader scrolls up.
 */
export function LogView({ lines, version, label }: { lines: readonly LogLine[]; version: number; label: string }) {
  const scroller = useRef<HTMLDivElement>(null);
  const [follow, setFollow] = useState(true);
  const virtualizer = useVirtualizer({ count: lines.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 20 });
  useEffect(() => {
    if (follow && lines.length > 0) virtualizer.scrollToIndex(lines.length - 1, { align: 'end' });
  }, [version, follow, lines.length, virtualizer]);
  if (lines.length === 0) return <p className="empty">No log lines yet.</p>;
  return (
    <div
      ref={scroller}
      className="log-view"
      role="log"
      aria-label={label}
      aria-live="off"
      tabIndex={0}
      data-lines={lines.length}
      onScroll={(event) => {
        const element = event.currentTarget;
        setFollow(element.scrollHeight - element.scrollTop - element.clientHeight < ROW_HEIGHT * 2);
      }}
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((item) => {
          const line = lines[item.index]!;
          return (
            <div
              key={item.key}
              className={`log-line log-${line.stream}`}
              style={{ position: 'absolute', top: 0, transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}
            >
              {line.step ? <span className="log-step">{line.step}</span> : null}
              {line.line}
            </div>
          );
        })}
      </div>
    </div>
  );
}
