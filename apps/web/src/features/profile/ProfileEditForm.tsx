import { validateProfileForm } from '@ct/domain';
import type { ProfileForm } from '@ct/domain';
import { Button, Form, Input, Space } from 'antd';
import { useState } from 'react';
import { notify } from '../../shared/notify';
import { profile as messages } from '../../i18n/defaults/profile';

const t = messages.profile;

/**
 * Local-only profile form (spec section 2): Save validates and shows the success message;
 * nothing is sent to the server, because the spec shows no profile update call.
 */
export function ProfileEditForm({ initial, onDone }: { initial: ProfileForm; onDone: () => void }) {
  const [form, setForm] = useState<ProfileForm>(initial);
  const [errors, setErrors] = useState<Partial<Record<keyof ProfileForm, string>>>({});

  const change = (field: keyof ProfileForm) => (e: { target: { value: string } }) => {
    setForm((prev) => ({ ...prev, [field]: e.target.value }));
    if (errors[field]) setErrors((prev) => ({ ...prev, [field]: undefined }));
  };

  const save = () => {
    const found = validateProfileForm(form);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    notify.success(t.updated);
    onDone();
  };

  return (
    <Form layout="vertical" requiredMark={false} onFinish={save} className="profile-form">
      <Form.Item
        label={t.nickname}
        htmlFor="profile-nickname"
        validateStatus={errors.nick_name ? 'error' : undefined}
        help={errors.nick_name}
      >
        <Input id="profile-nickname" value={form.nick_name} onChange={change('nick_name')} />
      </Form.Item>
      <Form.Item label={t.phone} htmlFor="profile-phone">
        <Input id="profile-phone" inputMode="tel" value={form.phone} onChange={change('phone')} />
      </Form.Item>
      <Form.Item
        label={t.email}
        htmlFor="profile-email"
        validateStatus={errors.email ? 'error' : undefined}
        help={errors.email}
      >
        <Input id="profile-email" inputMode="email" value={form.email} onChange={change('email')} />
      </Form.Item>
      <Space>
        <Button type="primary" htmlType="submit">
          {t.save}
        </Button>
        <Button onClick={onDone}>{t.cancel}</Button>
      </Space>
    </Form>
  );
}
