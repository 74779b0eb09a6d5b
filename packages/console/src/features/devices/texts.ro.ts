import type { Translation } from '../../lib/i18n/translation.ts';
import type { devicesTexts } from './texts.en.ts';

/** The devices page in Romanian (namespace `devices`). */
export const devicesTextsRo: Translation<typeof devicesTexts, 'ro'> = {
  list: {
    intro:
      'Cheile de acces înregistrate de utilizatorii dumneavoastră, după data creării. Revocați cheia care a fost pierdută sau în care nu mai aveți încredere.',
    label: 'Dispozitive',
    email: 'E-mail',
    userId: 'ID utilizator',
    deviceName: 'Numele dispozitivului',
    ip: 'Adresă IP',
    createdAt: 'Creat la',
    status: 'Stare',
    active: 'Activ',
    revoked: 'Revocat',
    actions: 'Acțiuni',
    revoke: 'Revocați',
    revokeOf: 'Revocați {{device}} pentru {{user}}',
    noAddress: 'Necunoscută',
  },
  revoke: {
    title: 'Revocați dispozitivul',
    text: 'Doriți să revocați dispozitivul „{{device}}” al utilizatorului {{user}}? Cheia sa de acces încetează imediat să mai permită conectarea, iar sesiunile sale de conectare se încheie. Această acțiune este ireversibilă.',
    confirm: 'Revocați',
  },
  bulk: {
    open: 'Revocați toate dispozitivele corespunzătoare',
    none: 'Niciun dispozitiv activ nu corespunde filtrului: nu este nimic de revocat.',
    countFailed: 'Numărarea dispozitivelor de revocat a eșuat',
    title_one: 'Revocați {{number}} dispozitiv',
    title_few: 'Revocați {{number}} dispozitive',
    title_other: 'Revocați {{number}} de dispozitive',
    text_one:
      '{{number}} dispozitiv activ care corespunde filtrului actual, înregistrat până la {{until}} UTC, va fi revocat: cheia sa de acces încetează imediat să mai permită conectarea, iar sesiunile sale de conectare se încheie. Această acțiune este ireversibilă.',
    text_few:
      'Toate cele {{number}} dispozitive active care corespund filtrului actual, înregistrate până la {{until}} UTC, vor fi revocate: cheile lor de acces încetează imediat să mai permită conectarea, iar sesiunile lor de conectare se încheie. Această acțiune este ireversibilă.',
    text_other:
      'Toate cele {{number}} de dispozitive active care corespund filtrului actual, înregistrate până la {{until}} UTC, vor fi revocate: cheile lor de acces încetează imediat să mai permită conectarea, iar sesiunile lor de conectare se încheie. Această acțiune este ireversibilă.',
    confirm_one: 'Revocați {{number}} dispozitiv',
    confirm_few: 'Revocați {{number}} dispozitive',
    confirm_other: 'Revocați {{number}} de dispozitive',
    runningTitle: 'Revocarea dispozitivelor',
    progress: '{{revoked}} din {{total}} revocate',
    resumable:
      'Fiecare dispozitiv revocat rămâne revocat. Dacă operațiunea se oprește, folosiți din nou „Revocați toate dispozitivele corespunzătoare” pentru a le revoca pe celelalte.',
    stop: 'Opriți',
    done_one: '{{revoked}} dispozitiv revocat',
    done_few: '{{revoked}} dispozitive revocate',
    done_other: '{{revoked}} de dispozitive revocate',
    stopped:
      'Operațiunea s-a oprit după revocarea a {{revoked}} din {{total}}. Folosiți din nou „Revocați toate dispozitivele corespunzătoare” pentru a termina.',
    failed: 'Au fost revocate {{revoked}} din {{total}}, apoi operațiunea a eșuat',
  },
};
