import { describe, expect, it } from 'vitest';
import { domainHost, domainOrigin, isAssociationFile, requestHostKey } from '../src/index.ts';

describe('custom domains (spec §3 customDomain, customMobileDomain; docs/decisions/0016)', () => {
  it.each([
    ['https://auth.example.com', 'https://auth.example.com', 'auth.example.com'],
    ['https://auth.example.com/', 'https://auth.example.com', 'auth.example.com'],
    ['HTTPS://Auth.Example.COM', 'https://auth.example.com', 'auth.example.com'],
    ['https://auth.example.com:443', 'https://auth.example.com', 'auth.example.com'],
    ['https://auth.example.com:8443', 'https://auth.example.com:8443', 'auth.example.com:8443'],
    ['http://localhost:3000', 'http://localhost:3000', 'localhost:3000'],
    ['https://bücher.example', 'https://xn--bcher-kva.example', 'xn--bcher-kva.example'],
  ])('%s names the origin %s, routed by Host %s', (value, origin, host) => {
    expect(domainOrigin(value)).toBe(origin);
    expect(domainHost(value)).toBe(host);
  });

  it.each([
    '',
    'auth.example.com',
    'auth.example.com:443',
    'ftp://auth.example.com',
    'com.example.app:/callback',
    'https://auth.example.com/login',
    'https://auth.example.com/?x=1',
    'https://auth.example.com/#top',
    'https://auth.example.com?',
    'https://user:pw@auth.example.com',
    'https://auth example.com',
  ])('%j names no origin', (value) => {
    expect(domainOrigin(value)).toBeNull();
    expect(domainHost(value)).toBeNull();
  });

  it.each([
    ['auth.example.com', 'auth.example.com'],
    ['Auth.Example.com:8443', 'auth.example.com:8443'],
    ['[::1]:3000', '[::1]:3000'],
    ['127.0.0.1:3000', '127.0.0.1:3000'],
  ])('the request Host %s is looked up as %s', (host, key) => {
    expect(requestHostKey(host)).toBe(key);
  });

  it.each([undefined, '', 'a b', 'auth.example.com/path', 'user@auth.example.com', 'auth.example.com:port', '[::1', 'é.example', 'x'.repeat(300)])(
    'the request Host %j is no domain',
    (host) => {
      expect(requestHostKey(host)).toBeNull();
    },
  );

  it.each([
    ['associationIOS', '{"applinks":{"details":[]},"webcredentials":{"apps":["ABCDE12345.com.example.app"]}}', true],
    ['associationIOS', '[]', false],
    ['associationIOS', 'null', false],
    ['associationIOS', '{"applinks":', false],
    ['associationIOS', '', false],
    ['associationIOS', `{"pad":"${'x'.repeat(128 * 1024)}"}`, false],
    ['associationAndroid', '[{"relation":["delegate_permission/common.get_login_creds"],"target":{"namespace":"android_app"}}]', true],
    ['associationAndroid', '{"relation":[]}', false],
    ['associationAndroid', '   ', false],
  ] as const)('%s %j can be served: %s', (field, text, valid) => {
    expect(isAssociationFile(field, text)).toBe(valid);
  });
});
