import { Modal } from 'antd';
import { messages } from '../../i18n/messages';

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
