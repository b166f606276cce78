import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';

// The whole surface the renderer gets: invoke(method, params) and subscribe(topic, cursor, cb).
// No raw ipcRenderer, no sendSync, no file access. Method and topic names are checked in main.

let nextSub = 1;

contextBridge.exposeInMainWorld('mewbo', {
  invoke: (method: string, params: unknown) => ipcRenderer.invoke('mewbo:invoke', method, params),
  subscribe: (
    topic: string,
    cursor: number | undefined,
    onData: (d: unknown) => void,
    onError: (e: unknown) => void,
  ) => {
    const sub = nextSub++;
    const listener = (
      _e: IpcRendererEvent,
      frame: { sub: number; data?: unknown; error?: unknown },
    ) => {
      if (frame.sub !== sub) return;
      if (frame.error) onError(frame.error);
      else onData(frame.data);
    };
    ipcRenderer.on('mewbo:event', listener);
    ipcRenderer.send('mewbo:subscribe', sub, topic, cursor);
    return {
      unsubscribe: () => {
        ipcRenderer.removeListener('mewbo:event', listener);
        ipcRenderer.send('mewbo:unsubscribe', sub);
      },
      ack: (n: number) => ipcRenderer.send('mewbo:ack', sub, n),
    };
  },
});
