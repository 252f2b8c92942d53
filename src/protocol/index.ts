export * from './roles';
export * from './plan';
export * from './question';
export * from './cards';
export * from './events';
export * from './webviewMessages';
export * from './applyHostEvent';
export * from './chatSession';
