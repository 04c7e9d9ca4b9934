import { Modal } from 'antd';
import { shell as messages } from '../../i18n/defaults/shell';

/** Asks whether to reload after the network check failed (spec section 2). */
export function NetworkErrorDialog({
  open,
  onRefresh,
  onCancel,
}: {
  open: boolean;
  onRefresh: () => void;
  onCancel: () => void;
}) {
  return (
    <Modal
      open={open}
      title={messages.network.title}
      okText={messages.network.refresh}
      cancelText={messages.network.cancel}
      onOk={onRefresh}
      onCancel={onCancel}
      centered
    >
      <p>{messages.network.content}</p>
    </Modal>
  );
}
