// Workflow definitions registered by the worker; the session lifecycle lands here next.
export {};
