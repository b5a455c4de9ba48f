// KEK rotation: re-wraps every user's data key with the current key-encryption
// key and securely erases the old wrapping. Payloads are not touched (they are
// sealed with the data keys, which do not change).
//
//   HEARTH_KEK=<new> HEARTH_KEK_PREVIOUS=<old> pnpm keys:rotate
//   KMS_PROVIDER=vault VAULT_ADDR=… VAULT_TOKEN=… HEARTH_KEK_PREVIOUS=<old local KEK> pnpm keys:rotate   (local → Vault)
//
// Run it with the services already given both (HEARTH_KEK new, HEARTH_KEK_PREVIOUS
// old), so every process reads keys of either wrapping meanwhile; it can be
// stopped and run again. Remove HEARTH_KEK_PREVIOUS once it reports no key left.
import cliProgress from 'cli-progress';
import { Command } from 'commander';
import { Bus } from '@hearth/bus';
import { eventEncryption, loadHostConfig } from '@hearth/host';
import { createLogger } from '@hearth/telemetry';

new Command('keys:rotate').description("Re-wrap every data key with the current KEK (after changing HEARTH_KEK, or moving to Vault)").parse();

const config = loadHostConfig();
const log = createLogger({ service: 'keys-rotate', level: config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL, stderr: true });
const encryption = eventEncryption(config, log);
if (!encryption) {
  console.error('EVENT_ENCRYPTION=off: there are no data keys to re-wrap');
  process.exit(1);
}
const bus = await Bus.connect({
  url: config.NATS_URL,
  name: 'hearth-keys-rotate',
  user: config.NATS_USER,
  pass: config.NATS_PASSWORD,
  namespace: config.HEARTH_NAMESPACE,
  logger: log,
  encryption,
});
let code = 0;
const bar = process.stderr.isTTY ? new cliProgress.SingleBar({ format: 'data keys {bar} {value}/{total}', stream: process.stderr }, cliProgress.Presets.shades_classic) : undefined;
try {
  process.stdout.write(`re-wrapping data keys of namespace ${config.HEARTH_NAMESPACE} with KEK ${encryption.kek.id}\n`);
  let started = false;
  const r = await bus.keyring!.rotate((done, total) => {
    if (!started) bar?.start(total, 0);
    started = true;
    bar?.update(done);
    if (!bar && (done % 1000 === 0 || done === total)) process.stdout.write(`  ${done}/${total}\n`);
  });
  bar?.stop();
  process.stdout.write(`${r.total} users: ${r.rewrapped} re-wrapped, ${r.current} already under the current KEK, ${r.erased} erased (no key)\n`);
} catch (err) {
  bar?.stop();
  console.error(`rotation stopped: ${(err as Error).message} (run it again to resume)`);
  code = 1;
} finally {
  await bus.close();
}
process.exit(code);
