// antd's static message, for toasts shown where no App is mounted (shared/notify.tsx).
export { message } from 'antd';
