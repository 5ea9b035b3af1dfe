/// A location with coordinates: EventKit's `EKStructuredLocation`.
public struct StructuredLocation: Hashable, Sendable {
    public var title: String?
    public var latitude: Double?
    public var longitude: Double?
    /// Radius in metres, as Apple's geofences use it.
    public var radius: Double?
    /// Parameters carried by the source that the model does not interpret (Apple's
    /// X-ADDRESS, X-APPLE-MAPKIT-HANDLE, …), kept for round trips.
    public var extraParameters: [Parameter]

    public init(title: String? = nil, latitude: Double? = nil, longitude: Double? = nil, radius: Double? = nil, extraParameters: [Parameter] = []) {
        self.title = title
        self.latitude = latitude
        self.longitude = longitude
        self.radius = radius
        self.extraParameters = extraParameters
    }
}

/// A latitude and longitude in decimal degrees (RFC 5545 §3.8.1.6 GEO).
public struct GeoCoordinate: Hashable, Sendable {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

extension GeoCoordinate {
    /// The numbers of a `geo:` URI (RFC 5870 §3.3: latitude, longitude and an optional
    /// altitude, before any `;` parameters), unparsed, or nil when `text` is not a geo: URI.
    /// Each reader decides how many it takes and whether they must be finite; they share this
    /// because both hand-written versions trapped on "geo:" with nothing before the `;`.
    public static func numbers(inGeoURI text: String) -> [Substring]? {
        guard text.prefix(4).lowercased() == "geo:" else { return nil }
        let body = text.dropFirst(4).prefix { $0 != ";" }
        return body.isEmpty ? [] : body.split(separator: ",", omittingEmptySubsequences: false)
    }
}
