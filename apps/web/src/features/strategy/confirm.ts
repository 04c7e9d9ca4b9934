import { Modal, type ModalFuncProps } from 'antd';
import type { AppApi } from '../../shared/appApi';

type ModalApi = AppApi['modal'];

/** What a confirmation asks: title, text and button labels (antd's confirm props). */
export type Question = Pick<
  ModalFuncProps,
  'title' | 'content' | 'okText' | 'cancelText' | 'okButtonProps'
>;

/**
 * Asks the user; on OK runs `proceed` while the OK button shows it is busy, then closes.
 * Resolves true after `proceed`, false when cancelled.
 */
export type Ask = (question: Question, proceed: () => Promise<void>) => Promise<boolean>;

let modalApi: ModalApi | null = null;

/** The workbench registers the themed modal API of the antd App here. */
export function registerModalApi(api: ModalApi): () => void {
  modalApi = api;
  return () => {
    if (modalApi === api) modalApi = null;
  };
}

/** Asks with an antd confirmation dialog (the themed one when registered). */
export const askUser: Ask = (question, proceed) =>
  new Promise((resolve) => {
    (modalApi ?? Modal).confirm({
      ...question,
      onOk: async () => {
        await proceed();
        resolve(true);
      },
      onCancel: () => resolve(false),
    });
  });
