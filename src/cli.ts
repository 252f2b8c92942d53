// The headless entry (`tandem`). Filled in by the agent core work.
console.error('tandem: not implemented yet');
process.exit(1);
