// The assistant feature's parts that load on demand (loaders only).
export const loadAssistantLauncher = () => import('./AssistantLauncher');
