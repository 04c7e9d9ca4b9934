// The assistant feature's public face: what other features may import (apps/web/boundaries.js).
export { AssistantLauncher } from './AssistantLauncher';
export {
  EndpointItem,
  ModelItem,
  ProviderItem,
  providerDefaults,
  useProviderChoice,
} from './ProviderFields';
export { loadAssistantSettings, useAssistantSettings } from './settingsStore';
