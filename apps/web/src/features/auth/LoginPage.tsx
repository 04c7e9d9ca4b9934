import { LockOutlined, MailOutlined } from '@ant-design/icons';
import { LOGIN_MESSAGES, validateLoginForm } from '@ct/domain';
import { Button, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { ThemeButton } from '../../shared/ThemeButton';
import { messages } from '../../i18n/firstScreen';
import { login } from './store';

type FieldErrors = { email?: string; password?: string };

/** Puts the first failing login rule under the field it concerns. */
function fieldErrorsOf(message: string | null): FieldErrors {
  if (message === null) return {};
  return message === LOGIN_MESSAGES.passwordRequired ? { password: message } : { email: message };
}

export function LoginPage() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [submitting, setSubmitting] = useState(false);

  const submit = async () => {
    if (submitting) return;
    const failure = validateLoginForm(email, password);
    setErrors(fieldErrorsOf(failure));
    if (failure !== null) return;
    setSubmitting(true);
    try {
      await login(email, password);
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <div className="login-page">
      <div className="corner-actions">
        <ThemeButton />
      </div>
      <main className="login-card">
        <Typography.Title level={1} className="login-title">
          {messages.login.title}
        </Typography.Title>
        <Typography.Paragraph type="secondary" className="login-subtitle">
          {messages.login.subtitle}
        </Typography.Paragraph>
        <Form layout="vertical" requiredMark={false} onFinish={() => void submit()}>
          <Form.Item
            label={messages.login.email}
            htmlFor="login-email"
            validateStatus={errors.email ? 'error' : undefined}
            help={errors.email}
          >
            <Input
              id="login-email"
              size="large"
              inputMode="email"
              autoComplete="username"
              prefix={<MailOutlined aria-hidden="true" />}
              value={email}
              aria-invalid={errors.email ? true : undefined}
              onChange={(e) => {
                setEmail(e.target.value);
                if (errors.email) setErrors((prev) => ({ ...prev, email: undefined }));
              }}
            />
          </Form.Item>
          <Form.Item
            label={messages.login.password}
            htmlFor="login-password"
            validateStatus={errors.password ? 'error' : undefined}
            help={errors.password}
          >
            <Input.Password
              id="login-password"
              size="large"
              autoComplete="current-password"
              prefix={<LockOutlined aria-hidden="true" />}
              value={password}
              aria-invalid={errors.password ? true : undefined}
              onChange={(e) => {
                setPassword(e.target.value);
                if (errors.password) setErrors((prev) => ({ ...prev, password: undefined }));
              }}
            />
          </Form.Item>
          <Button type="primary" htmlType="submit" size="large" block loading={submitting}>
            {messages.login.submit}
          </Button>
        </Form>
      </main>
    </div>
  );
}
