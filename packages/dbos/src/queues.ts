import { dbosSdk } from './peer.js'

/**
 * Writes a queue's configuration while DBOS launches: DBOS initializes configured instances before
 * it recovers workflows or starts dispatching, so even the first dequeue sees the limit. (A
 * lifecycle callback runs after the dispatcher's first read, and a dispatcher rereads only every
 * second: a worker would take a whole backlog in that second.)
 */
export function configureQueues(name: string, register: () => Promise<unknown>): void {
  QueueConfiguration ??= class QueueConfiguration extends dbosSdk().ConfiguredInstance {
    constructor(
      name: string,
      private readonly register: () => Promise<unknown>,
    ) {
      super(name)
    }

    override async initialize(): Promise<void> {
      await this.register()
    }
  }
  new QueueConfiguration(name, register)
}
let QueueConfiguration: (new (name: string, register: () => Promise<unknown>) => object) | undefined
