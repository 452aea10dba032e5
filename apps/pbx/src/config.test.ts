import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cargarConfigPbx } from './config.ts';

describe('cargarConfigPbx', () => {
  it('embedded default: folders under DATA_DIR/pbx, the api public key, the api origins, no AMI', () => {
    const c = cargarConfigPbx({ DATA_DIR: '/datos', PORT: '9000' });
    expect(c).toMatchObject({
      puerto: 8090,
      host: '127.0.0.1',
      software: 'asterisk',
      sonidosDir: path.resolve('/datos/pbx/sonidos'),
      dialplanDir: path.resolve('/datos/pbx/dialplan'),
      pjsipDir: path.resolve('/datos/pbx/pjsip'),
      amiUrl: '',
      clavePublica: path.resolve('/datos/jwt-publica.pem'),
      origenes: ['http://localhost:9000', 'http://127.0.0.1:9000'],
      apiUrl: 'http://127.0.0.1:9000',
      idioma: 'es',
      sonidosSistemaDir: path.resolve('/var/lib/asterisk/sounds'),
    });
    expect(cargarConfigPbx({ PBX_IDIOMA: 'es_MX', PBX_SONIDOS_SISTEMA_DIR: '/s' })).toMatchObject({
      idioma: 'es_MX',
      sonidosSistemaDir: path.resolve('/s'),
    });
    expect(cargarConfigPbx({}).apiUrl).toBe('http://127.0.0.1:8080');
    expect(cargarConfigPbx({ PBX_API_URL: 'https://api.pregon.mx/' }).apiUrl).toBe(
      'https://api.pregon.mx',
    );
    expect(cargarConfigPbx({ PBX_SOFTWARE: 'Asterisk' }).software).toBe('asterisk');
    expect(cargarConfigPbx({ PBX_ORIGENES: ' https://a.mx , ,https://b.mx' }).origenes).toEqual([
      'https://a.mx',
      'https://b.mx',
    ]);
    expect(cargarConfigPbx({ PBX_AMI_URL: 'ami://[::1]:5038' }).amiUrl).toBe('ami://[::1]:5038');
  });

  it.each([
    [{ PBX_PORT: 'x' }, /PBX_PORT inválido/],
    [{ PBX_PORT: '70000' }, /PBX_PORT inválido/],
    [{ PBX_SOFTWARE: 'a/b' }, /PBX_SOFTWARE inválido/],
    [{ PBX_AMI_URL: 'ami://host:99999' }, /PBX_AMI_URL inválida/],
    [{ PBX_AMI_URL: 'ami://exa mple' }, /PBX_AMI_URL inválida/],
    [{ PBX_API_URL: 'api.pregon.mx' }, /PBX_API_URL inválida/],
    [{ PBX_API_URL: 'ftp://api' }, /PBX_API_URL inválida/],
    [{ PBX_IDIOMA: 'es)' }, /PBX_IDIOMA inválido/],
    [{ PBX_IDIOMA: 'es\n same => n,System(id)' }, /PBX_IDIOMA inválido/],
  ])('refuses %o at start with a message naming the variable', (env, error) => {
    expect(() => cargarConfigPbx(env)).toThrow(error);
  });
});
