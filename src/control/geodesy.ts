/**
 * Local ENU metres <-> WGS84 geodetic coordinates around an origin, with the local tangent-plane
 * approximation: dlat = north / M(lat0), dlon = east / (N(lat0) cos lat0), h = h0 + up, where M and
 * N are the meridian and prime-vertical radii of curvature of the WGS84 ellipsoid (NIMA TR8350.2,
 * a = 6378137 m, f = 1 / 298.257223563). Accurate to centimetres within a few km of the origin,
 * which covers a simulated flight.
 */
const A = 6378137;
const F = 1 / 298.257223563;
const E2 = F * (2 - F);

export type GeoOrigin = { lat_deg: number; lon_deg: number; alt_m: number };
export type Geodetic = { latitude: number; longitude: number; altitude: number };

function radii(lat_deg: number): { m: number; n: number } {
  const s = Math.sin((lat_deg * Math.PI) / 180);
  const w = 1 - E2 * s * s;
  return { m: (A * (1 - E2)) / (w * Math.sqrt(w)), n: A / Math.sqrt(w) };
}

export function enuToGeodetic(origin: GeoOrigin, east: number, north: number, up: number, out: Geodetic): Geodetic {
  const { m, n } = radii(origin.lat_deg);
  out.latitude = origin.lat_deg + (north / m) * (180 / Math.PI);
  out.longitude = origin.lon_deg + (east / (n * Math.cos((origin.lat_deg * Math.PI) / 180))) * (180 / Math.PI);
  out.altitude = origin.alt_m + up;
  return out;
}

export function geodeticToEnu(origin: GeoOrigin, g: Geodetic): [number, number, number] {
  const { m, n } = radii(origin.lat_deg);
  const north = ((g.latitude - origin.lat_deg) * Math.PI * m) / 180;
  const east = ((g.longitude - origin.lon_deg) * Math.PI * n * Math.cos((origin.lat_deg * Math.PI) / 180)) / 180;
  return [east, north, g.altitude - origin.alt_m];
}
