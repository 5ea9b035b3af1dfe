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
