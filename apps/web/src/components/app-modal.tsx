import { useCallback, useRef, useState, type PointerEvent as ReactPointerEvent, type ReactNode } from 'react';
import { Modal, type ModalProps } from 'antd';

/**
 * The one modal dialog of the app (spec §9): a backdrop, draggable by its title bar and
 * resizable from its lower-right corner. Use it instead of antd's Modal directly.
 */
export function AppModal({ title, modalRender, classNames, afterClose, ...rest }: ModalProps) {
  const [offset, setOffset] = useState({ x: 0, y: 0 });
  const drag = useRef<{ startX: number; startY: number; baseX: number; baseY: number } | null>(null);

  const onPointerDown = useCallback(
    (e: ReactPointerEvent<HTMLDivElement>) => {
      if (e.button !== 0) return;
      drag.current = { startX: e.clientX, startY: e.clientY, baseX: offset.x, baseY: offset.y };
      e.currentTarget.setPointerCapture(e.pointerId);
    },
    [offset],
  );
  const onPointerMove = (e: ReactPointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d) return;
    setOffset({ x: d.baseX + e.clientX - d.startX, y: d.baseY + e.clientY - d.startY });
  };
  const onPointerUp = () => {
    drag.current = null;
  };

  const render = (node: ReactNode) => (
    <div style={{ transform: `translate(${offset.x}px, ${offset.y}px)` }}>
      {modalRender ? modalRender(node) : node}
    </div>
  );

  return (
    <Modal
      {...rest}
      mask={{ closable: false }}
      title={
        title && (
          <div
            className="app-modal-drag-handle"
            onPointerDown={onPointerDown}
            onPointerMove={onPointerMove}
            onPointerUp={onPointerUp}
          >
            {title}
          </div>
        )
      }
      modalRender={render}
      classNames={{ ...(typeof classNames === 'object' ? classNames : {}), container: 'app-modal-resizable' }}
      afterClose={() => {
        setOffset({ x: 0, y: 0 });
        afterClose?.();
      }}
    />
  );
}
