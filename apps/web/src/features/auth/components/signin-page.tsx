import { Alert, Button, Card, Form, Input, Typography } from 'antd';
import { LockOutlined, UserOutlined } from '../../../components/iconos.tsx';
import { useNavigate } from 'react-router';
import { msg } from '@pregon/contract/messages';
import { mensajeError } from '../../../lib/api-client.ts';
import { guardarToken, tomarRegreso } from '../../../lib/sesion.ts';
import { useIngresar } from '../api/ingresar.ts';

interface Valores {
  usuario: string;
  password: string;
}

/** /signin: usuario, contraseña and 'Ingresar'; shows the server's Spanish error on failure; on
 * success goes back to the page the expired session left (or /). */
export function SigninPage() {
  const navegar = useNavigate();
  const ingresar = useIngresar();

  const enviar = (valores: Valores) => {
    ingresar.mutate(
      { usuario: valores.usuario.trim(), password: valores.password },
      {
        onSuccess: (r) => {
          guardarToken(r.token);
          // Back to the page that was open when the session ended (issue 26.7), else /.
          navegar(tomarRegreso(), { replace: true });
        },
      },
    );
  };

  return (
    <Card className="signin-card" variant="borderless">
      <div className="signin-marca">
        <img src="/logo.svg" alt="" width={48} height={48} />
        <div>
          <Typography.Title level={3} style={{ margin: 0 }}>
            {msg('nombreApp')}
          </Typography.Title>
          <Typography.Text type="secondary">{msg('lemaApp')}</Typography.Text>
        </div>
      </div>
      <Typography.Title level={4} className="signin-titulo">
        {msg('iniciarSesion')}
      </Typography.Title>
      {ingresar.isError && (
        <Alert
          type="error"
          showIcon
          role="alert"
          message={mensajeError(ingresar.error)}
          style={{ marginBottom: 16 }}
        />
      )}
      <Form<Valores> layout="vertical" onFinish={enviar} requiredMark={false} size="large">
        <Form.Item
          label={msg('campoUsuario')}
          name="usuario"
          rules={[
            {
              required: true,
              whitespace: true,
              message: msg('campoObligatorio', { campo: msg('campoUsuario') }),
            },
          ]}
        >
          <Input prefix={<UserOutlined />} autoFocus autoComplete="username" />
        </Form.Item>
        <Form.Item
          label={msg('campoContrasena')}
          name="password"
          rules={[
            { required: true, message: msg('campoObligatorio', { campo: msg('campoContrasena') }) },
          ]}
        >
          <Input.Password prefix={<LockOutlined />} autoComplete="current-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={ingresar.isPending}>
          {msg('ingresar')}
        </Button>
      </Form>
    </Card>
  );
}
