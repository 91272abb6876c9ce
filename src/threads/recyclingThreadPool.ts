import path from 'node:path';
import v8 from 'node:v8';
import { Piscina } from 'piscina';

/** What a task of a recycling pool answers: its result and what the thread's heap held after it. */
export interface ThreadTaskOutcome {
  threadHeapBytes: number;
}

/** Called in the thread as a task ends, for its outcome. */
export function threadHeapBytes(): number {
  return v8.getHeapStatistics().used_heap_size;
}

export interface RecyclingThreadPoolOptions {
  /**
   * The task module's directory and name without extension: run from TypeScript sources (tests, tsx),
   * the threads load the `.ts` through tsx, else the `.js`.
   */
  directory: string;
  module: string;
  minThreads: number;
  maxThreads: number;
  /** Heap of one thread; a task that needs more fails with ERR_WORKER_OUT_OF_MEMORY, not the process. */
  memoryMb: number;
}

interface Generation {
  pool: Piscina;
  running: number;
  retired: boolean;
}

/**
 * Worker threads that are replaced once a task leaves one holding more than a quarter of its heap.
 * pdf-lib keeps every PDF name it has read in a table for the life of the thread: each document with
 * names of its own (every pdf-lib-made page has a few dozen) stays in memory after it, so a thread that
 * served for ever would grow without bound, or, under its heap limit, refuse a later document that
 * fits for what earlier ones left. New tasks go to a fresh pool; the old one ends when its tasks have.
 */
export class RecyclingThreadPool<Task, Outcome extends ThreadTaskOutcome> {
  private current: Generation;
  private readonly generations = new Set<Generation>();
  private readonly retireAboveBytes: number;

  constructor(private readonly options: RecyclingThreadPoolOptions) {
    this.retireAboveBytes = (options.memoryMb * 1024 * 1024) / 4;
    this.current = this.startGeneration();
  }

  async run(
    task: Task,
    options: { signal?: AbortSignal; transferList?: ArrayBuffer[] } = {},
  ): Promise<Outcome> {
    const generation = this.current;
    generation.running += 1;
    try {
      const outcome: Outcome = await generation.pool.run(task, options);
      if (outcome.threadHeapBytes > this.retireAboveBytes && generation === this.current) this.replace();
      return outcome;
    } finally {
      generation.running -= 1;
      if (generation.retired && generation.running === 0) void this.end(generation);
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.generations].map((generation) => this.end(generation)));
  }

  private startGeneration(): Generation {
    const fromSources = __filename.endsWith('.ts');
    const pool = new Piscina({
      filename: path.join(this.options.directory, `${this.options.module}${fromSources ? '.ts' : '.js'}`),
      execArgv: fromSources ? ['--require', require.resolve('tsx/cjs')] : [],
      minThreads: this.options.minThreads,
      maxThreads: this.options.maxThreads,
      idleTimeout: 30_000,
      resourceLimits: { maxOldGenerationSizeMb: this.options.memoryMb },
    });
    const generation = { pool, running: 0, retired: false };
    this.generations.add(generation);
    return generation;
  }

  private replace() {
    const old = this.current;
    old.retired = true;
    this.current = this.startGeneration();
  }

  private end(generation: Generation): Promise<void> {
    this.generations.delete(generation);
    return generation.pool.destroy();
  }
}
