// The instrument catalogue is pure data and lives in the domain (market/catalogue.ts), so
// tools that drive the product read it without the server's code; the market and trading
// modules import it from here.
export { CATALOGUE, INSTRUMENTS, type CatalogueInstrument, type CatalogueMarket } from '@ct/domain';
