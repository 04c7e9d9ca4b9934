// The live gateway's public entry (`@ct/server/gateway`): the hub, its WebSocket route and
// the connection policy, as the server wires them in app.ts. The fan-out benchmark drives
// this component with its own publisher, next to a bare `ws` broadcast.
export { DEFAULT_GATEWAY_OPTIONS, GatewayHub, type GatewayOptions } from './hub.ts';
export { gatewayRoutes, LIVE_PATH } from './routes.ts';
export { createGatewayPolicy, type PolicyOptions } from './policy.ts';
