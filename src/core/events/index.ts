export { EventStream } from './eventStream';
export { CardStore } from './cardStore';
