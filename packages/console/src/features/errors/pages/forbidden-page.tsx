import { ForbiddenMessage } from '../../../components/forbidden-message.tsx';

/** spec §2 "/forbidden": the 403 page at its own address. */
export default function ForbiddenPage() {
  return <ForbiddenMessage />;
}
