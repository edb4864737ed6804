/**
 * The JSON shapes of the API (API.md), as records: request bodies the resources read and the
 * answers the services build inside their transactions (so no entity leaves a transaction).
 */
package lab.orderentry.api;
