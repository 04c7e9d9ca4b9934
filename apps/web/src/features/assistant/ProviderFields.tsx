import type { AiProvider } from '@ct/domain';
import { Form, type FormInstance, Input, Select } from 'antd';

/** Selecting a provider fills its fixed endpoint and its first model (spec section 9). */
export function providerDefaults(
  providers: readonly AiProvider[],
  value: string,
): { baseURL: string; model: string } | null {
  const provider = providers.find((p) => p.value === value);
  if (!provider) return null;
  return { baseURL: provider.base_url, model: provider.models[0]?.value ?? '' };
}

type ProviderValues = { provider: string; baseURL: string; model: string };

/**
 * The provider a form (with `provider`, `baseURL` and `model` fields) has chosen, whether it
 * needs a key, and the change handler that fills the provider's endpoint and first model.
 */
export function useProviderChoice<Values extends ProviderValues>(
  form: FormInstance<Values>,
  providers: readonly AiProvider[] | null,
) {
  const value = Form.useWatch('provider', form) as string | undefined;
  const chosen = providers?.find((p) => p.value === value);
  const onProviderChange = (next: string) => {
    const defaults = providerDefaults(providers ?? [], next);
    // the form's own type is wider than these three fields
    if (defaults) form.setFieldsValue(defaults as Parameters<typeof form.setFieldsValue>[0]);
  };
  return { chosen, needsKey: chosen ? chosen.requires_key : true, onProviderChange };
}

type ItemText = { label: string; required: string };

/** The Service Provider select. */
export function ProviderItem({
  text,
  providers,
  onChange,
}: {
  text: ItemText;
  providers: readonly AiProvider[] | null;
  onChange: (value: string) => void;
}) {
  return (
    <Form.Item
      name="provider"
      label={text.label}
      rules={[{ required: true, message: text.required }]}
    >
      <Select
        loading={providers === null}
        onChange={onChange}
        options={(providers ?? []).map((p) => ({ value: p.value, label: p.label }))}
      />
    </Form.Item>
  );
}

/** The provider's endpoint, read-only: it comes with the provider. */
export function EndpointItem({ text }: { text: ItemText }) {
  return (
    <Form.Item
      name="baseURL"
      label={text.label}
      rules={[{ required: true, whitespace: true, message: text.required }]}
    >
      <Input readOnly />
    </Form.Item>
  );
}

/** The Model select: the chosen provider's models. */
export function ModelItem({
  text,
  provider,
}: {
  text: ItemText;
  provider: AiProvider | undefined;
}) {
  return (
    <Form.Item name="model" label={text.label} rules={[{ required: true, message: text.required }]}>
      <Select
        showSearch
        options={(provider?.models ?? []).map((model) => ({
          value: model.value,
          label: model.label,
          title: model.description,
        }))}
      />
    </Form.Item>
  );
}
