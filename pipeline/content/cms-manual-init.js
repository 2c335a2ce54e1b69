// Read by Decap CMS when its bundle loads: wait for cms-formats.ts to start it.
globalThis.CMS_MANUAL_INIT = true
